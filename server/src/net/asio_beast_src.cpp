// Asio and Beast compiled once (separate compilation): keeps every other networking
// translation unit lighter on this small build machine.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
