// The rule options the engine knows: the one place in core that lists them
// (docs/options.md, "Adding an option"). One entry each, X(Name, id):
//
//   Name  the Option enumerator; its place in this list is its value, kept in records'
//         stored forms and option bit masks: never reorder, append only;
//   id    its name in records and messages, and its folder, core/src/options/<id>/,
//         where its part lives (found as <id>_part()).
#pragma once

#define CARC_EACH_OPTION(X) \
  X(NoFields, no_fields)    \
  X(SmallCity, small_city)
