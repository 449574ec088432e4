// Fuzzes the version outputs the Software suite reads (probes/versions/versions_parse.h):
// uname -r, slurmd -V, munged --version, the MPI library version, NCCL's dotted version,
// gpuconform's own and nvidia-smi -q -x's driver and CUDA versions, all on the same bytes.
#include "fuzz/fuzz_support.h"
#include "probes/versions/versions_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::AsText(data, size);
  for (auto parse : {versions::ParseKernelRelease, versions::ParseSlurmdVersion, versions::ParseMungedVersion,
                     versions::ParseMpiLibraryVersion, versions::ParseDottedVersion,
                     versions::ParseGpuconformVersion}) {
    fuzz::Inspect(parse(text, fuzz::kOrigin), [](const auto& version) { fuzz::Keep(version); });
  }
  fuzz::Inspect(versions::ParseNvidiaSmiVersions(text, fuzz::kOrigin),
                [](const auto& found) { fuzz::Keep(found.driver + found.cuda); });
  return 0;
}
