// Rule options a host may choose beside the expansions (docs/options.md): small changes to
// the rules, each a part of the engine in its own folder (core/src/options/<id>/), listed in
// options/list.hpp. A set of them is a bit mask, carried by the Ruleset with the expansions.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "carc/core/options/list.hpp"

namespace carc {

#define CARC_OPTION_ENUMERATOR(Name, id) Name,
enum class Option : std::uint8_t { CARC_EACH_OPTION(CARC_OPTION_ENUMERATOR) };
#undef CARC_OPTION_ENUMERATOR
#define CARC_OPTION_ONE(Name, id) +1
inline constexpr int kOptionKinds = 0 CARC_EACH_OPTION(CARC_OPTION_ONE);
#undef CARC_OPTION_ONE
static_assert(kOptionKinds <= 8, "an OptionSet keeps one bit per option in a byte");

std::string_view option_name(Option o);  // its id, as in records and messages
std::optional<Option> option_from_name(std::string_view s);

class OptionSet {
 public:
  constexpr OptionSet() = default;
  static constexpr OptionSet from_bits(std::uint8_t bits) { return OptionSet(bits); }
  constexpr bool has(Option o) const { return (bits_ >> static_cast<int>(o)) & 1; }
  constexpr OptionSet with(Option o) const {
    return OptionSet(static_cast<std::uint8_t>(bits_ | (1u << static_cast<int>(o))));
  }
  constexpr std::uint8_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool operator==(const OptionSet&) const = default;

 private:
  constexpr explicit OptionSet(std::uint8_t b) : bits_(b) {}
  std::uint8_t bits_ = 0;
};

}  // namespace carc
