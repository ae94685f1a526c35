// A QR code as an SVG document, drawn by libqrencode (the transfer link of a player key).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace carc::server {

// The SVG (dark modules as one path, a quiet zone of 4), or none if the text cannot be encoded.
std::optional<std::string> qr_svg(std::string_view text);

}  // namespace carc::server
