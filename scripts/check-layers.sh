#!/usr/bin/env bash
# No include goes up a layer (docs/architecture.md, the layers):
#   core/      standard C++20 only: no I/O, threads, JSON, Boost; includes only core
#   protocol/  core + nlohmann-json; no Boost, spdlog, SQLite, PostgreSQL; never the server
#   server/    anything below it; never tests/ or tools/
# and inside the server (docs/architecture.md, "Inside the server"):
#   server/src and server/push include server headers with their folder ("room/room_logic.hpp")
#   Beast only in server/src/net/ and push/http_client.cpp (a Beast translation unit takes ~25 s
#   to compile); outside net/ only net/server.hpp, which stays free of Boost
#   room/ (all but room.hpp and room.cpp, the adapter on the strand) has no I/O: no Boost, threads,
#   files or sockets, and of the server only room/, base/, limits/, keys/, durable/persistence.hpp and
#   community/game_result.hpp (a pure value)
# Prints each offending line as file:line: include, and exits 1 if there is one.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
bad=0

report() {  # file line include why
  echo "$1:$2: $3  ($4)"
  bad=1
}

# Standard headers core may not use: I/O, threads, time and randomness from the outside.
core_forbidden='^(iostream|istream|ostream|fstream|sstream|cstdio|filesystem|thread|mutex|shared_mutex|future|condition_variable|atomic|stop_token|semaphore|latch|barrier|chrono|ctime|random|regex|locale)$'

include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*([<"])([^>"]+)[>"]'

# Standard and system headers room logic may not use: threads, files, sockets.
room_forbidden='^(thread|mutex|shared_mutex|condition_variable|future|stop_token|semaphore|fstream|filesystem|unistd\.h|sys/.*|netinet/.*|arpa/.*)$'

check_server_file() {  # file line kind include
  local file=$1 n=$2 kind=$3 inc=$4
  if [[ $file == server/src/* || $file == server/push/* ]] && [[ $kind == '"' && $inc != */* ]]; then
    report "$file" "$n" "\"$inc\"" "server headers are included with their folder"
  fi
  if [[ $kind == "<" && $inc == boost/beast* ]] && [[ $file != server/src/net/* && $file != server/push/http_client.cpp ]]; then
    report "$file" "$n" "<$inc>" "Beast only in server/src/net/ and push/http_client.cpp"
  fi
  if [[ $kind == '"' && $inc == net/* && $inc != net/server.hpp && $file != server/src/net/* ]]; then
    report "$file" "$n" "\"$inc\"" "outside net/ only net/server.hpp, which has no Beast"
  fi
  if [[ $file == server/src/net/server.hpp && $kind == "<" && $inc == boost/* ]]; then
    report "$file" "$n" "<$inc>" "net/server.hpp is included outside net/: no Boost"
  fi
  if [[ $file == server/src/room/* && $file != server/src/room/room.hpp && $file != server/src/room/room.cpp ]]; then
    if [[ $kind == "<" ]]; then
      if [[ $inc == boost/* ]]; then report "$file" "$n" "<$inc>" "room logic has no I/O: Asio only in room/room.*"
      elif [[ $inc =~ $room_forbidden ]]; then report "$file" "$n" "<$inc>" "room logic has no threads, files or sockets"; fi
    elif [[ $inc != carc/* && $inc != room/* && $inc != base/* && $inc != limits/* && $inc != keys/* &&
            $inc != durable/persistence.hpp && $inc != community/game_result.hpp ]]; then
      report "$file" "$n" "\"$inc\"" "room logic includes only room/, base/, limits/, keys/, durable/persistence.hpp and community/game_result.hpp"
    fi
  fi
}

check_file() {  # layer file
  local layer=$1 file=$2 n=0 line inc
  while IFS= read -r line; do
    n=$((n + 1))
    [[ $line =~ $include_re ]] || continue
    local kind=${BASH_REMATCH[1]} inc=${BASH_REMATCH[2]}
    [[ $inc == *..* ]] && { report "$file" "$n" "$inc" "no relative paths out of a folder"; continue; }
    case $layer in
      core)
        if [[ $kind == "<" ]]; then
          if [[ $inc == */* || $inc == *.h || $inc == *.hpp ]]; then report "$file" "$n" "<$inc>" "core uses the standard library only"
          elif [[ $inc =~ $core_forbidden ]]; then report "$file" "$n" "<$inc>" "core does no I/O, threads or clocks"; fi
        elif [[ $inc == carc/* && $inc != carc/core/* ]]; then report "$file" "$n" "\"$inc\"" "core includes only core"
        fi ;;
      protocol)
        if [[ $kind == "<" ]]; then
          if [[ $inc != nlohmann/* ]] && [[ $inc == */* || $inc == *.h || $inc == *.hpp ]]; then
            report "$file" "$n" "<$inc>" "protocol uses the standard library and nlohmann-json only"
          fi
        elif [[ $inc == carc/* && $inc != carc/core/* && $inc != carc/protocol/* ]]; then
          report "$file" "$n" "\"$inc\"" "protocol includes only core and protocol"
        fi ;;
      server)
        if [[ $inc == tests/* || $inc == tools/* || $inc == harness.hpp || $inc == doctest/* ]]; then
          report "$file" "$n" "$inc" "the server never includes tests or tools"
        fi
        check_server_file "$file" "$n" "$kind" "$inc" ;;
    esac
  done <"$file"
}

for layer in core protocol server; do
  while IFS= read -r -d '' f; do check_file "$layer" "$f"; done \
    < <(find "$layer" -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.h' \) -print0)
done

if [[ $bad -ne 0 ]]; then
  echo "check-layers: an include goes up a layer (core < protocol < server) or across the server's folders"
  exit 1
fi

# JSON text is written by protocol::json_text only (docs/architecture.md, "Nothing one
# request does ends the process"): nlohmann's dump() throws on bytes that are not UTF-8,
# and bytes from the network reach many documents. Parsing never throws either: the
# non-throwing parse (nullptr, false) or a try around it. server/load is the load generator.
while IFS= read -r hit; do
  report "${hit%%:*}" "$(cut -d: -f2 <<<"$hit")" "$(cut -d: -f3- <<<"$hit" | sed 's/^[[:space:]]*//')" \
    "write JSON with protocol::json_text, never dump()"
done < <(grep -rn --include='*.cpp' --include='*.hpp' '\.dump(' protocol server | grep -v '^server/load/' |
         grep -v '^protocol/src/json.cpp:')
while IFS= read -r hit; do
  report "${hit%%:*}" "$(cut -d: -f2 <<<"$hit")" "$(cut -d: -f3- <<<"$hit" | sed 's/^[[:space:]]*//')" \
    "parse with json::parse(text, nullptr, false): a parse that throws can end the process"
done < <(grep -rn --include='*.cpp' --include='*.hpp' 'json::parse(' protocol server | grep -v '^server/load/' |
         grep -v 'nullptr, *\(/\*[^*]*\*/ *\)\?false')
if [[ $bad -ne 0 ]]; then
  echo "check-layers: JSON written or parsed in a way that can throw on bytes from the network"
  exit 1
fi
# The web client (docs/architecture.md, "The web client"): base code reaches the expansions
# through expansions/registry.js only and names none of them (an expansion is a folder and
# one line in expansions/index.js); an expansion's modules import only the base modules that
# read the registry when called, never while loading (i18n/, platform/, tiles/meeple-art.js),
# so that the import cycle through the registry never reads a module half loaded.
js=web-client/js
names='river|abbot|garden|cathedral|\binns?\b|big meeple|\bbig\b|trader|builder|goods|\bpig\b|\bwine\b|\bgrain\b|\bcloth\b'
while IFS= read -r hit; do
  report "${hit%%:*}" "$(cut -d: -f2 <<<"$hit")" "$(cut -d: -f3- <<<"$hit" | sed 's/^[[:space:]]*//')" \
    "base code imports expansions/registry.js only"
done < <(grep -rn --include='*.js' -E "^(import|export) .*from '[./]*expansions/" "$js" web-client/app.js |
         grep -v "^$js/expansions/" | grep -v "expansions/registry.js'")
while IFS= read -r hit; do
  report "${hit%%:*}" "$(cut -d: -f2 <<<"$hit")" "$(cut -d: -f3- <<<"$hit" | sed 's/^[[:space:]]*//')" \
    "base code names no expansion, figure or token"
done < <(grep -rniE --include='*.js' "$names" "$js" web-client/app.js | grep -v "^$js/expansions/" | grep -v "^$js/i18n/strings/")
while IFS= read -r hit; do
  report "${hit%%:*}" "$(cut -d: -f2 <<<"$hit")" "$(cut -d: -f3- <<<"$hit" | sed 's/^[[:space:]]*//')" \
    "an expansion imports only i18n/, platform/ and tiles/meeple-art.js from base code"
done < <(grep -rn --include='*.js' -E "^import .*from '\.\./\.\./" "$js/expansions" |
         grep -vE "from '\.\./\.\./(i18n/i18n|platform/[a-z-]+|tiles/meeple-art)\.js'")
if [[ $bad -ne 0 ]]; then
  echo "check-layers: the web client's base code and its expansions reach each other outside expansions/registry.js"
  exit 1
fi
echo "check-layers: core, protocol and server include nothing above them, Beast stays in net/, room logic does no I/O, and JSON is written and parsed without throwing; the web client's base code reaches the expansions through their registry only"
