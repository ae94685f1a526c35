#!/usr/bin/env bash
# How far each expansion reaches outside its own folders: for each one, the product files
# (core, protocol, server, tools, web-client; Markdown aside) that name it, its figures or
# its tokens, outside the folders named after it. An expansion that is a true plug-in is
# named only by the registries that list the expansions (docs/architecture.md).
#
#   bash scripts/expansion-spread.sh [REV]      REV: a commit to measure (default: the work tree)
#   CARC_SPREAD_FILES=1 ...                     also lists the files
#   CARC_SPREAD_MAX=N ...                       fails when an expansion reaches more than N files
#                                               (the test command: 3, the registries)
set -uo pipefail
cd "$(dirname "$0")/.."
rev=(${1:-})
declare -A pattern=(
  [river]='river|spring'
  [abbot]='\babbots?\b|\bgardens?\b'
  [inns]='\binns?\b|cathedral|\bbig\b'
  [traders]='trader|builder|goods|\bpig\b|\bwine\b|\bgrain\b|\bcloth\b'
  [princess]='princess|dragon|fairy|volcano|portal'
)
for id in river abbot inns traders princess; do
  files=$(git grep -liE "${pattern[$id]}" "${rev[@]}" -- core protocol server tools web-client \
            ":!*/expansions/$id/*" ':!*.md')
  n=$(printf '%s' "$files" | grep -c .)
  printf '%-8s %3d\n' "$id" "$n"
  if [[ -n ${CARC_SPREAD_MAX:-} ]] && ((n > CARC_SPREAD_MAX)); then
    printf '%s\n' "$files" | sed 's/^/    /'
    echo "expansion-spread: $id is named in $n product files outside its folders (at most $CARC_SPREAD_MAX: the registries)" >&2
    failed=1
  fi
  [[ ${CARC_SPREAD_FILES:-0} == 1 ]] && printf '%s\n' "$files" | sed 's/^/    /'
done
exit "${failed:-0}"
