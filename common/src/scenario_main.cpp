// The main() of scenarios_sNN: `scenarios_s01 fifo_order` runs one scenario,
// `scenarios_s01 --list` names them all.
#include <cstdio>
#include <exception>
#include <map>
#include <string>

#include "looplab/testing/scenario.hpp"

namespace looplab::testing {
namespace {
std::map<std::string, ScenarioFunction>& registry() {
  static std::map<std::string, ScenarioFunction> scenarios;
  return scenarios;
}
}  // namespace

bool register_scenario(const char* name, ScenarioFunction function) {
  return registry().emplace(name, function).second;
}

}  // namespace looplab::testing

int main(int argc, char** argv) {
  const auto& scenarios = looplab::testing::registry();
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s NAME | --list\n", argv[0]);
    return 2;
  }
  std::string name = argv[1];
  if (name == "--list") {
    for (const auto& [scenario, function] : scenarios) std::printf("%s\n", scenario.c_str());
    return 0;
  }
  auto found = scenarios.find(name);
  if (found == scenarios.end()) {
    std::fprintf(stderr, "no scenario named '%s' (try --list)\n", name.c_str());
    return 2;
  }
  try {
    found->second();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scenario %s: uncaught exception: %s\n", name.c_str(), e.what());
    return 1;
  }
  std::fflush(stdout);
  return 0;
}
