// Tournaments' notices (docs/tournaments.md#notifications): where each entrant wants to be
// told that its table of a new round is ready (a webhook, a Web Push subscription), and the
// notices themselves. A notice's id is a function of the table and the seat, so the same
// notice derived again (after a restart, on another node) is the same delivery, marked sent
// once it was answered 2xx (docs/turn-based.md#notifications-outside-the-page).
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "carc/protocol/json.hpp"
#include "tournaments/service.hpp"
#include "tournaments/refusal.hpp"

namespace carc::server {

namespace t9s = tournaments;
using nlohmann::json;

namespace {


std::string name_in(const t9s::Tournament& t, const std::string& player) {
  for (const t9s::Entrant& e : t.entrants) {
    if (e.player == player) return e.name;
  }
  return player;
}

}  // namespace

std::map<std::string, TournamentService::Targets> TournamentService::targets_of(const std::string& id) {
  std::map<std::string, Targets> out;
  auto rows = store_->targets(id);
  if (auto* why = std::get_if<std::string>(&rows)) {
    spdlog::warn("tournaments: {}: {}", id, *why);
    return out;
  }
  for (const auto& [player, text] : std::get<std::vector<std::pair<std::string, std::string>>>(rows)) {
    const json j = json::parse(text, nullptr, false);
    if (!j.is_object()) continue;
    Targets t;
    if (auto h = j.find("webhook"); h != j.end() && h->is_object()) {
      const auto format = protocol::hook_format_from_name(h->value("format", ""));
      if (format) t.hook = protocol::WebhookSetting{h->value("url", ""), *format};
    }
    if (auto p = j.find("push"); p != j.end() && p->is_object()) {
      t.push = PushTarget{p->value("endpoint", ""), p->value("p256dh", ""), p->value("auth", "")};
    }
    out[player] = std::move(t);
  }
  return out;
}

void TournamentService::set_targets(std::string id, std::string player, HookChange hook, PushChange push, Done done) {
  if (!worker_.post([this, id = std::move(id), player = std::move(player), hook = std::move(hook), push = std::move(push), done] {
        Answer failure;
        auto l = load(id, failure);
        if (!l) return done(failure);
        bool entrant = false;
        for (const t9s::Entrant& e : l->t.entrants) entrant = entrant || (e.player == player && e.dropped_after != t9s::kRemovedEntrant);
        if (!entrant) return done(t9s::refusal(403, "not_entrant", "only a player registered in this tournament sets where its notices go"));
        if (l->t.state == "finished") return done(t9s::refusal(409, "finished", "the tournament is over: there is nothing more to tell"));
        Targets t = targets_of(id)[player];
        if (hook) t.hook = *hook;
        if (push) t.push = *push;
        json j = json::object();
        if (t.hook) j["webhook"] = {{"url", t.hook->url}, {"format", std::string(protocol::hook_format_name(t.hook->format))}};
        if (t.push) j["push"] = {{"endpoint", t.push->endpoint}, {"p256dh", t.push->p256dh}, {"auth", t.push->auth}};
        if (Status s = store_->set_targets(id, player, j.empty() ? "" : protocol::json_text(j)); !s) {
          spdlog::warn("tournaments: {}: {}", id, s.error());
          return done(t9s::refusal(503, "unavailable", "tournaments cannot be used right now; try again"));
        }
        done({200, protocol::json_text(json{{"webhook", t.hook.has_value()}, {"push", t.push.has_value()}})});
      })) {
    done(t9s::refusal(503, "unavailable", "tournaments cannot be used right now; try again"));
  }
}

void TournamentService::targets(std::string id, std::string player, Done done) {
  if (!worker_.post([this, id = std::move(id), player = std::move(player), done] {
        Answer failure;
        if (!load(id, failure)) return done(failure);
        auto all = targets_of(id);
        const auto it = all.find(player);
        const bool hook = it != all.end() && it->second.hook;
        const bool push = it != all.end() && it->second.push;
        done({200, protocol::json_text(json{{"webhook", hook}, {"push", push}})});
      })) {
    done(t9s::refusal(503, "unavailable", "tournaments cannot be used right now; try again"));
  }
}

void TournamentService::notify_table(const Loaded& l, const t9s::Table& table, const std::map<std::string, Targets>& targets,
                                     bool replayed) {
  if (!hooks_.notify || table.room.empty() || table.result) return;
  std::vector<Notice> notices;
  std::vector<std::string> ids;
  for (std::size_t seat = 0; seat < table.players.size(); ++seat) {
    const auto it = targets.find(table.players[seat]);
    if (it == targets.end() || (!it->second.hook && !it->second.push)) continue;
    Notice n;
    n.event = Notice::Event::NewTable;
    n.id = "t-" + l.t.id + "-" + std::to_string(table.round) + "-" + std::to_string(table.table) + "-" +
           std::to_string(table.game) + "-" + std::to_string(seat);
    if (sent_.contains(n.id)) continue;
    n.room = table.room;
    n.seat = static_cast<int>(seat);
    n.name = name_in(l.t, table.players[seat]);
    n.hook = it->second.hook;
    n.push = it->second.push;
    n.tournament = l.t.id;
    n.tournament_name = l.t.settings.name;
    n.round = table.round;
    n.replayed = replayed;
    ids.push_back(n.id);
    notices.push_back(std::move(n));
  }
  if (notices.empty() || !hooks_.notify(std::move(notices))) return;
  sent_.insert(ids.begin(), ids.end());
}

void TournamentService::notify_late(const Loaded& l) {
  if (l.t.state != "running" || !hooks_.notify || hooks_.now() < l.t.round_started_ms + hooks_.notice_grace_ms) return;
  bool pending = false;
  for (const t9s::Table& table : l.t.tables) pending = pending || (table.round == l.t.round && !table.room.empty() && !table.result);
  if (!pending) return;
  const auto targets = targets_of(l.t.id);
  if (targets.empty()) return;
  for (const t9s::Table& table : l.t.tables) {
    if (table.round == l.t.round) notify_table(l, table, targets, true);
  }
}

}  // namespace carc::server
