// The web client's files. A request path is decoded once and refused if it could name
// anything outside the root: "..", "." segments, backslashes, NULs, control characters,
// and (after resolving symlinks) anything not under the root.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace carc::server {

struct StaticResponse {
  int status = 404;  // 200, 304, 400 or 404
  std::string content_type;
  std::string cache_control;
  std::string etag;
  std::string body;
};

// A page's marker for the links to the client's files: the server writes one
// <link rel="stylesheet"> for every .css file under js/ and one <link rel="modulepreload">
// for every .js file under js/ in its place, so that a browser asks for every module at
// once (no waterfall of imports) and a new module or expansion folder needs no page edit.
inline constexpr std::string_view kModuleLinksMarker = "<!-- module links -->";
// `html` with the marker (if any) replaced by the links to what is under `root`/js.
std::string with_module_links(std::string html, const std::filesystem::path& root);

// The decoded path relative to the root ("" for "/"), or nullopt if it is not acceptable.
std::optional<std::string> safe_relative_path(std::string_view target);
std::string_view content_type_for(const std::filesystem::path& p);

class StaticFiles {
  std::filesystem::path root_;  // canonical

 public:
  explicit StaticFiles(const std::filesystem::path& root);
  const std::filesystem::path& root() const { return root_; }
  // `target` is the request path without the query. "/", "/r/<room>" and "/replay/<room>" serve index.html.
  StaticResponse get(std::string_view target, std::string_view if_none_match) const;
};

}  // namespace carc::server
