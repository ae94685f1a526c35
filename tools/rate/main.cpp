// `carc-rate`: the server's rating step (server/src/community/rating.hpp) fed JSON on stdin,
// so tests/web/rating-openskill.test.mjs can compare it with the `openskill` package.
//   stdin:  {"tables": [{"ratings": [{"mu": 25, "sigma": 8.33}, ...], "rank": [1, 2, ...]}, ...]}
//   stdout: {"tables": [[{"mu": ..., "sigma": ...}, ...], ...]}
// A malformed input prints {"error": why} and exits 65.
#include <exception>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "community/rating.hpp"

int main() {
  using nlohmann::json;
  namespace community = carc::server::community;
  try {
    const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    const json in = json::parse(text);
    json out = {{"tables", json::array()}};
    for (const json& table : in.at("tables")) {
      std::vector<community::Rating> prior;
      std::vector<int> rank;
      for (const json& r : table.at("ratings")) prior.push_back({r.at("mu").get<double>(), r.at("sigma").get<double>()});
      for (const json& r : table.at("rank")) rank.push_back(r.get<int>());
      json row = json::array();
      for (const community::Rating& r : community::rate(prior, rank)) row.push_back({{"mu", r.mu}, {"sigma", r.sigma}});
      out["tables"].push_back(std::move(row));
    }
    std::cout << out.dump() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cout << json{{"error", e.what()}}.dump() << "\n";
    return 65;
  }
}
