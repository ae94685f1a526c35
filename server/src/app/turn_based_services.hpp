// What turn-based games add beside the rooms, owned by the server and set up by Durability
// (they use the same database): player keys, and the notifications sent outside the page.
#pragma once

#include <memory>

namespace carc::server {

class PlayerKeys;
class Notifier;
class OidcClient;

struct TurnBasedServices {
  // Destroyed in reverse: the notifier first (it asks the keys' worker, never the reverse).
  std::shared_ptr<PlayerKeys> keys;     // null: /api/keys answers unavailable
  std::shared_ptr<Notifier> notifier;   // null: nothing is sent outside the page
  std::shared_ptr<OidcClient> oidc;     // null: no sign-in (docs/community.md)
};

}  // namespace carc::server
