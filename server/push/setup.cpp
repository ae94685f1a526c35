#include "push/setup.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "app/turn_based_services.hpp"
#include "push/notifier.hpp"
#include "rooms/registry.hpp"
#include "net/server.hpp"

namespace carc::server {

void start_notifications(Server& server, const Config& config) {
  std::unique_ptr<push::Vapid> vapid;
  if (!config.vapid_key.empty() || config.data_dir.filename() != ":memory:") {
    const auto file = config.vapid_key.empty() ? config.data_dir / "vapid.pem" : std::filesystem::path(config.vapid_key);
    auto loaded = push::Vapid::load_or_create(file);
    if (auto* why = std::get_if<std::string>(&loaded)) throw std::runtime_error(*why);
    vapid = std::move(std::get<std::unique_ptr<push::Vapid>>(loaded));
    spdlog::info("web push: VAPID key {}", file.string());
    if (!config.db_url.empty() && config.vapid_key.empty()) {
      spdlog::warn("web push: with --db, give every node the same --vapid-key (a subscription is bound to one key)");
    }
  } else {
    vapid = push::Vapid::generate();
  }
  Notifier::Options o;
  o.allow_private = config.allow_private_hooks;
  o.extra_ca = config.extra_ca;
  o.subject = config.vapid_subject;
  o.base_url = config.base_url;
  if (o.base_url.empty()) {
    const std::string host = config.bind == "0.0.0.0" || config.bind == "::" ? "localhost" : config.bind;
    o.base_url = "http://" + host + ":" + std::to_string(config.port);
  }
  if (config.allow_private_hooks) spdlog::warn("--allow-private-hooks: webhooks and push endpoints may name private addresses and use plain http");
  RoomRegistry& rooms = server.rooms();
  auto notifier = std::make_shared<Notifier>(o, std::move(vapid), [&rooms](const std::string& room, int seat, const std::string& endpoint) {
    rooms.find(room, [seat, endpoint](std::shared_ptr<Room> r) {
      if (r) boost::asio::post(r->strand(), [r, seat, endpoint] { r->drop_push(seat, endpoint); });
    });
  });
  TurnBasedServices& services = server.turn_based();
  notifier->set_log([&services] { return services.keys; });  // set by Durability::restore, before any room starts
  server.turn_based().notifier = notifier;
  rooms.set_notify([n = notifier.get()](std::vector<Notice> notices) { n->send(std::move(notices)); });
}

}  // namespace carc::server
