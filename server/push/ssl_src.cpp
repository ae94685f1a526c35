// Asio's TLS layer compiled once (separate compilation, as src/net/asio_beast_src.cpp does for the rest).
#include <boost/asio/ssl/impl/src.hpp>
