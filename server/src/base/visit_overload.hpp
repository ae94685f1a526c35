// std::visit over several lambdas: std::visit(Overload{[](A&) {...}, [](B&) {...}}, v).
#pragma once

namespace carc::server {

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;  // clang before 17 deduces no aggregate (the fuzz build)

}  // namespace carc::server
