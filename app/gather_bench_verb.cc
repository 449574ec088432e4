#include "app/gather_bench_verb.h"

#include <unistd.h>

#include <chrono>
#include <iostream>

#include "harness/core/run_options.h"
#include "harness/util/record_lines.h"
#include "harness/world/world.h"

namespace gpuconform {

namespace {

constexpr const char* kUsage = "usage: gpuconform __gather-bench --via tcp|pmix --part-bytes N\n";

}  // namespace

int GatherBenchMain(const std::vector<std::string>& args) {
  std::string via = "tcp";
  long long part_bytes = -1;
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
    if (args[i] == "--via") via = args[i + 1];
    if (args[i] == "--part-bytes") part_bytes = std::atoll(args[i + 1].c_str());
  }
  if ((via != "tcp" && via != "pmix") || part_bytes < 0 || args.size() != 4) {
    std::cerr << kUsage;
    return 2;
  }
  LaunchFacts launch = BuildRunOptions(CommandLineSettings{}, ReadEnvironment(environ)).launch;
  launch.gather_through_pmix = via == "pmix";
  auto world = World::Start(launch);
  if (!world) {
    std::cerr << "gpuconform __gather-bench: " << world.error() << "\n";
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto parts = world->GatherToRoot(std::string(static_cast<std::size_t>(part_bytes), 'x'),
                                         {"the bench gather", std::chrono::seconds(120)});
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  if (world->is_root()) {
    long long received = 0;
    for (const auto& part : parts) received += static_cast<long long>(part.size());
    std::cout << FormatRecord("gather", {{"via", via},
                                         {"ranks", std::to_string(world->size())},
                                         {"part_bytes", std::to_string(part_bytes)},
                                         {"received_bytes", std::to_string(received)},
                                         {"seconds", std::to_string(seconds.count())}})
              << std::endl;
  }
  world->Finish(0, std::chrono::seconds(60));
  return 0;
}

}  // namespace gpuconform
