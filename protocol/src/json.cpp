#include "carc/protocol/json.hpp"

#include <algorithm>
#include <string>

#include "expansions/part.hpp"

namespace carc::protocol {
namespace {

std::string letter(Tile t) { return std::string(tile_name(t)); }

json ports_json(std::uint16_t mask) {
  json out = json::array();
  for (int p = 0; p < kPortCount; ++p) {
    if ((mask >> p) & 1) out.push_back(std::string(port_name(static_cast<Port>(p))));
  }
  return out;
}

json seats_json(const std::vector<Seat>& seats) {
  json out = json::array();
  for (Seat s : seats) out.push_back(s);
  return out;
}

}  // namespace

json cell_json(Cell c) { return json{{"x", c.x}, {"y", c.y}}; }

std::string json_text(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

static json tile_list(const Ruleset* rules) {
  json tiles = json::array();
  for (const TileDef& d : catalog()) {
    const int count = rules != nullptr ? rules->counts[static_cast<std::size_t>(d.tile)] : d.count;
    if (rules != nullptr && count == 0) continue;
    json sides = json::array();
    for (Terrain t : d.sides) sides.push_back(std::string(terrain_name(t)));
    json features = json::array();
    int pennants = 0;
    for (int i = 0; i < d.segment_count; ++i) {
      const Segment& s = d.segments[static_cast<std::size_t>(i)];
      json f{{"id", i}, {"kind", std::string(kind_name(s.kind))}, {"ports", ports_json(s.ports)}};
      if (s.kind == Kind::City) f["pennant"] = s.pennant;
      if (s.pennant) ++pennants;
      // The expansions' marks (protocol/src/expansions/), only where a tile has them.
      for (int x = 0; x < kExpansionKinds; ++x) {
        const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(x));
        if (part != nullptr && part->segment_json != nullptr) part->segment_json(s, f);
      }
      if (s.kind == Kind::Field) {
        json cities = json::array();
        for (int c = 0; c < kMaxSegments; ++c) {
          if ((s.cities >> c) & 1) cities.push_back(c);
        }
        f["cities"] = cities;
      }
      features.push_back(std::move(f));
    }
    json tile{{"letter", letter(d.tile)},
              {"count", count},
              {"pennants", pennants},
              {"sides", sides},
              {"features", features},
              {"expansion", d.expansion ? json(std::string(expansion_name(*d.expansion))) : json(nullptr)}};
    for (int x = 0; x < kExpansionKinds; ++x) {
      const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(x));
      if (part != nullptr && part->tile_json != nullptr) part->tile_json(d, tile);
    }
    tiles.push_back(std::move(tile));
  }
  return tiles;
}

static json ports_list() {
  json ports = json::array();
  for (int p = 0; p < kPortCount; ++p) ports.push_back(std::string(port_name(static_cast<Port>(p))));
  return ports;
}

json tiles_json() {
  return json{{"ports", ports_list()},
              {"start", {{"tile", letter(kStartTile)}, {"x", 0}, {"y", 0}, {"rotation", 0}}},
              {"tiles", tile_list(nullptr)}};
}

json tiles_json(ExpansionSet set) {
  const Ruleset& rules = ruleset(set);
  json expansions = json::array();
  for (int e = 0; e < kExpansionKinds; ++e) {
    if (set.has(static_cast<Expansion>(e))) expansions.push_back(std::string(expansion_name(static_cast<Expansion>(e))));
  }
  return json{{"ports", ports_list()},
              {"expansions", expansions},
              {"start", {{"tile", letter(rules.start)}, {"x", 0}, {"y", 0}, {"rotation", 0}}},
              {"bag", rules.bag_size},
              {"tiles", tile_list(&rules)}};
}


json event_json(const Event& e) {
  return std::visit(
      [](const auto& ev) -> json {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, TilePlaced>) {
          json out{{"type", "placed"},
                      {"seat", ev.seat},
                      {"tile", letter(ev.tile)},
                      {"x", ev.cell.x},
                      {"y", ev.cell.y},
                      {"rotation", ev.rotation.degrees()},
                      {"meeple", ev.meeple ? json(std::string(port_name(*ev.meeple))) : json(nullptr)}};
          if (ev.meeple && ev.figure != Figure::Meeple) out["figure"] = std::string(figure_name(ev.figure));
          if (ev.action && ev.action_kind == 0) out[std::string(detail::action_key())] = cell_json(*ev.action);
          if (ev.extra) out["extra"] = true;
          for (int x = 0; x < kExpansionKinds; ++x) {
            const detail::ProtocolPart* part = detail::protocol_part(static_cast<Expansion>(x));
            if (part != nullptr && part->write_move != nullptr) part->write_move(move_of(ev), {}, out);
          }
          return out;
        } else if constexpr (std::is_same_v<T, TileDiscarded>) {
          json out{{"type", "discarded"}, {"seat", ev.seat}, {"tile", letter(ev.tile)}};
          if (ev.extra) out["extra"] = true;
          return out;
        } else if constexpr (std::is_same_v<T, TileDrawn>) {
          json out{{"type", "drew"}, {"seat", ev.seat}, {"tile", letter(ev.tile)}};
          if (ev.extra) out["extra"] = true;
          return out;
        } else if constexpr (std::is_same_v<T, ExpansionEvent>) {
          const detail::ProtocolPart* part = detail::protocol_part(ev.expansion);
          return part != nullptr && part->event_json != nullptr ? part->event_json(ev) : json(nullptr);
        } else if constexpr (std::is_same_v<T, MeepleReturned>) {
          json out{{"type", "returned"}, {"seat", ev.seat}, {"x", ev.cell.x}, {"y", ev.cell.y}};
          if (ev.figure != Figure::Meeple) out["figure"] = std::string(figure_name(ev.figure));
          return out;
        } else if constexpr (std::is_same_v<T, FeatureScored>) {
          json cells = json::array();
          for (Cell c : ev.cells) cells.push_back(cell_json(c));
          json meeples = json::array();
          // One entry a seat, and never fewer than the 5 that every base game's events have
          // always carried (stored games compare their events exactly).
          const int seats = std::max(kMaxPlayersBase, ev.players);
          for (int s = 0; s < seats; ++s) meeples.push_back(ev.meeples[static_cast<std::size_t>(s)]);
          json out{{"type", "scored"},
                      {"kind", std::string(kind_name(ev.kind))},
                      {"end", ev.end_of_game},
                      {"points", ev.points},
                      {"seats", seats_json(ev.winners)},
                      {"meeples", meeples},
                      {"tiles", ev.tiles},
                      {"pennants", ev.pennants},
                      {"cities", ev.cities},
                      {"cells", cells}};
          for (const detail::ScoredFlag& f : detail::scored_flags()) {  // the parts' marks
            if (f.holds(ev)) out[std::string(f.key)] = true;
          }
          bool any_bonus = false;
          for (int b : ev.bonus) any_bonus = any_bonus || b != 0;
          if (any_bonus) {
            json bonus = json::array();
            for (int s = 0; s < std::max(kMaxPlayersBase, ev.players); ++s) bonus.push_back(ev.bonus[static_cast<std::size_t>(s)]);
            out["bonus"] = bonus;
          }
          return out;
        } else {
          return json{{"type", "game_over"}, {"final_scores", ev.final_scores}, {"winners", seats_json(ev.winners)}};
        }
      },
      e);
}

}  // namespace carc::protocol
