// The parts of the rule options the engine knows, from their list (carc/core/options/list.hpp):
// option <id>'s part is <id>_part(), in core/src/options/<id>/ (docs/options.md).
#include <array>

#include "expansions/part.hpp"

namespace carc {
namespace {

constexpr std::array<std::string_view, kOptionKinds> kOptionNames = {
#define CARC_OPTION_NAME(Name, id) #id,
    CARC_EACH_OPTION(CARC_OPTION_NAME)
#undef CARC_OPTION_NAME
};

}  // namespace

std::string_view option_name(Option o) {
  const auto i = static_cast<std::size_t>(o);
  return i < kOptionNames.size() ? kOptionNames[i] : std::string_view{};
}

std::optional<Option> option_from_name(std::string_view s) {
  for (std::size_t i = 0; i < kOptionNames.size(); ++i) {
    if (kOptionNames[i] == s) return static_cast<Option>(i);
  }
  return std::nullopt;
}

namespace detail {

#define CARC_OPTION_PART_DECLARATION(Name, id) const Part& id##_part();
CARC_EACH_OPTION(CARC_OPTION_PART_DECLARATION)
#undef CARC_OPTION_PART_DECLARATION

const Part* option_part_of(Option o) {
  switch (o) {
#define CARC_OPTION_PART_CASE(Name, id) \
  case Option::Name: return &id##_part();
    CARC_EACH_OPTION(CARC_OPTION_PART_CASE)
#undef CARC_OPTION_PART_CASE
  }
  return nullptr;
}

}  // namespace detail
}  // namespace carc
