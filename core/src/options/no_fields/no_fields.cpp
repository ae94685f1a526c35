// The `no_fields` option (docs/options.md): fields are not played. No figure may stand on a
// field, so none is scored at the end (end-of-game scoring starts from the figures on the
// board), and a figure that could stand only on fields is not in the game at all (its supply
// is 0: not in figures_in_supply). Set up after every expansion, so it sees their figures.
#include "expansions/part.hpp"

namespace carc::detail {
namespace {

void setup(Ruleset& r) {
  const auto field = static_cast<std::uint8_t>(1u << static_cast<int>(Kind::Field));
  for (std::size_t f = 0; f < r.figure_kinds.size(); ++f) {
    const std::uint8_t kinds = r.figure_kinds[f];
    if ((kinds & field) == 0) continue;
    r.figure_kinds[f] = static_cast<std::uint8_t>(kinds & ~field);
    if (r.figure_kinds[f] == 0) r.figures[f] = 0;  // a farmer only: out of the game
  }
}

}  // namespace

const Part& no_fields_part() {
  static constexpr Part part{.id = {}, .setup = &setup};
  return part;
}

}  // namespace carc::detail
