#include "http/static_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <system_error>
#include <vector>

namespace carc::server {

namespace fs = std::filesystem;

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

StaticResponse status_only(int status) {
  StaticResponse r;
  r.status = status;
  r.content_type = "text/plain; charset=utf-8";
  r.cache_control = "no-store";
  r.body = status == 400 ? "bad path\n" : "not found\n";
  return r;
}

// The pages that are index.html for one path segment after them: "r/<room>" (the invite
// link), "replay/<room>" (a finished game's replay), "p/<player>" (a player's page,
// docs/community.md) and "t/<id>" (a tournament, docs/tournaments.md). The prefix, or ""
// for a file.
std::string_view client_page(std::string_view rel) {
  for (std::string_view prefix : {"r/", "replay/", "p/", "t/"}) {
    if (rel.starts_with(prefix)) return prefix;
  }
  return {};
}

// The links the page's marker stands for: every style sheet, then every module, under js/,
// in path order (docs/architecture.md, "The web client"). Hidden files and folders and
// symbolic links are skipped.
std::string module_links(const fs::path& root) {
  std::vector<std::string> sheets, modules;
  std::error_code ec;
  const fs::path js = root / "js";
  for (fs::recursive_directory_iterator it(js, fs::directory_options::none, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.filename().string().starts_with('.')) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink(ec) || !it->is_regular_file(ec)) continue;  // a link might lead out of the root
    const std::string rel = "js/" + p.lexically_relative(js).generic_string();
    if (!safe_relative_path("/" + rel)) continue;
    if (p.extension() == ".css") sheets.push_back(rel);
    if (p.extension() == ".js") modules.push_back(rel);
  }
  std::sort(sheets.begin(), sheets.end());
  std::sort(modules.begin(), modules.end());
  std::string out;
  for (const auto& f : sheets) out += "<link rel=\"stylesheet\" href=\"/" + f + "\">\n  ";
  for (const auto& f : modules) out += "<link rel=\"modulepreload\" href=\"/" + f + "\">\n  ";
  if (!out.empty()) out.resize(out.size() - 3);  // the marker's own line ends it
  return out;
}

}  // namespace

std::string with_module_links(std::string html, const fs::path& root) {
  const auto at = html.find(kModuleLinksMarker);
  if (at == std::string::npos) return html;
  return html.replace(at, kModuleLinksMarker.size(), module_links(root));
}

std::optional<std::string> safe_relative_path(std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  std::string decoded;
  decoded.reserve(target.size());
  for (std::size_t i = 0; i < target.size(); ++i) {
    char c = target[i];
    if (c == '%') {
      if (i + 2 >= target.size()) return std::nullopt;
      const int hi = hex_value(target[i + 1]);
      const int lo = hex_value(target[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F || c == '\\') return std::nullopt;  // NUL, control characters, backslashes
    decoded += c;
  }
  // Every segment must be a plain name: no "", ".", ".." (and so no "//").
  std::string_view rest = std::string_view(decoded).substr(1);
  if (rest.empty()) return std::string();
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = rest.find('/', start);
    const std::string_view seg = rest.substr(start, slash == std::string_view::npos ? slash : slash - start);
    if (seg.empty() || seg == "." || seg == ".." || seg.front() == '.') return std::nullopt;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return std::string(rest);
}

std::string_view content_type_for(const fs::path& p) {
  const std::string ext = p.extension().string();
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
  if (ext == ".gif") return "image/gif";
  if (ext == ".webp") return "image/webp";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".woff") return "font/woff";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  if (ext == ".webmanifest") return "application/manifest+json";
  if (ext == ".wasm") return "application/wasm";
  return "application/octet-stream";
}

StaticFiles::StaticFiles(const fs::path& root) {
  std::error_code ec;
  root_ = fs::weakly_canonical(root, ec);
  if (ec) root_ = root;
}

StaticResponse StaticFiles::get(std::string_view target, std::string_view if_none_match) const {
  auto rel = safe_relative_path(target);
  if (!rel) return status_only(400);
  // The root, the invite link and a game's replay are the single page of the client.
  const std::string_view page = client_page(*rel);
  const bool invite = !page.empty();  // a page whose address names a room
  if (rel->empty() || invite || *rel == "leaderboard") {  // the leaderboard: docs/community.md
    if (invite && rel->find('/', page.size()) != std::string::npos) return status_only(404);
    *rel = "index.html";
  }
  std::error_code ec;
  fs::path path = fs::weakly_canonical(root_ / *rel, ec);
  if (ec) return status_only(404);
  // Symlinks may not lead outside the root either.
  const auto [root_end, _] = std::mismatch(root_.begin(), root_.end(), path.begin(), path.end());
  if (root_end != root_.end()) return status_only(404);
  if (fs::is_directory(path, ec)) path /= "index.html";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return status_only(404);

  StaticResponse r;
  r.content_type = std::string(content_type_for(path));
  // The client has no build step and no hashed file names: let browsers cache but revalidate.
  // An invite or replay page's URL is a game's secret: no shared cache (or history of one) keeps it.
  if (invite) {
    r.cache_control = "private, no-store";
  } else if (path.extension() == ".html") {
    r.cache_control = "private, no-cache";
  } else {
    r.cache_control = "public, max-age=300, must-revalidate";
  }
  std::ostringstream etag;
  if (path.extension() == ".html") {
    // A page lists the modules that are there now (with_module_links): its tag follows
    // what it says, not the file's date.
    std::ifstream in(path, std::ios::binary);
    if (!in) return status_only(404);
    std::ostringstream body;
    body << in.rdbuf();
    r.body = with_module_links(body.str(), root_);
    etag << "\"p-" << std::hex << r.body.size() << '-' << std::hash<std::string>{}(r.body) << '"';
    r.etag = etag.str();
    if (!if_none_match.empty() && if_none_match == r.etag) {
      r.body.clear();
      r.status = 304;
      return r;
    }
    r.status = 200;
    return r;
  }
  etag << '"' << std::hex << st.st_size << '-' << st.st_mtim.tv_sec << '-' << st.st_mtim.tv_nsec << '"';
  r.etag = etag.str();
  if (!if_none_match.empty() && if_none_match == r.etag) {
    r.status = 304;
    return r;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return status_only(404);
  std::ostringstream body;
  body << in.rdbuf();
  r.body = body.str();
  r.status = 200;
  return r;
}

}  // namespace carc::server
