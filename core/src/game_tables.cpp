#include "game_tables.hpp"

#include <bit>

namespace carc::detail {
namespace {

Tables make_tables() {
  Tables t{};
  for (int k = 0; k < kTileKinds; ++k) {
    const TileDef& d = tile_def(static_cast<Tile>(k));
    t.cloister_seg[static_cast<std::size_t>(k)] = kNoSeg;
    bool has_exclusive = false;
    for (const Terrain side : d.sides) has_exclusive = has_exclusive || side == Terrain::Exclusive;
    for (int r = 0; r < 4; ++r) {
      const Rotation rot = Rotation::quarters(r);
      Oriented& o = t.o[static_cast<std::size_t>(k)][static_cast<std::size_t>(r)];
      o.seg_at.fill(kNoSeg);
      o.edges = 0;
      o.exclusive = 0;
      for (int side = 0; side < 4; ++side) {
        const int catalog_side = (side - r + 4) % 4;
        const Terrain terrain = d.sides[static_cast<std::size_t>(catalog_side)];
        o.edges = static_cast<std::uint8_t>(o.edges | (static_cast<int>(terrain) << (2 * side)));
        if (terrain == Terrain::Exclusive) o.exclusive = static_cast<std::uint8_t>(o.exclusive | (1u << side));
      }
      for (int s = 0; s < d.segment_count; ++s) {
        const Segment& seg = d.segments[static_cast<std::size_t>(s)];
        std::uint16_t board = 0;
        for (int p = 0; p < kPortCount; ++p) {
          if ((seg.ports >> p) & 1) {
            const Port bp = rotate(static_cast<Port>(p), rot);
            board = static_cast<std::uint16_t>(board | (1u << static_cast<int>(bp)));
            o.seg_at[static_cast<std::size_t>(bp)] = static_cast<std::uint8_t>(s);
          }
        }
        o.seg_ports[static_cast<std::size_t>(s)] = board;
        o.canonical[static_cast<std::size_t>(s)] = static_cast<Port>(std::countr_zero(board));
        if (is_cloister(seg.kind)) t.cloister_seg[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(s);
      }
      if (has_exclusive) continue;
      for (int want = 0; want < 256; ++want) {
        bool ok = true;
        for (int side = 0; side < 4; ++side) {
          const int need = (want >> (2 * side)) & 3;
          if (need != 0 && need != ((o.edges >> (2 * side)) & 3)) ok = false;
        }
        if (ok) {
          t.fits[static_cast<std::size_t>(k)][static_cast<std::size_t>(want)] |= static_cast<std::uint8_t>(1 << r);
          t.fit_count[static_cast<std::size_t>(k)][static_cast<std::size_t>(want)]++;
        }
      }
    }
  }
  return t;
}

}  // namespace

// Dynamic initialisation is safe: the catalog it reads is constant-initialised.
const Tables kTables = make_tables();

}  // namespace carc::detail
