#include "keys/qr_svg.hpp"

#include <qrencode.h>

#include <memory>

namespace carc::server {

std::optional<std::string> qr_svg(std::string_view text) {
  const std::string s(text);
  std::unique_ptr<QRcode, void (*)(QRcode*)> code(QRcode_encodeString(s.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1),
                                                   QRcode_free);
  if (!code) return std::nullopt;
  const int w = code->width;
  const int size = w + 8;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + std::to_string(size) + " " +
                    std::to_string(size) + "\" shape-rendering=\"crispEdges\"><rect width=\"100%\" height=\"100%\" "
                    "fill=\"#fff\"/><path fill=\"#000\" d=\"";
  for (int y = 0; y < w; ++y) {
    for (int x = 0; x < w; ++x) {
      if (code->data[y * w + x] & 1) out += "M" + std::to_string(x + 4) + " " + std::to_string(y + 4) + "h1v1h-1z";
    }
  }
  out += "\"/></svg>";
  return out;
}

}  // namespace carc::server
