// Fuzzes `nvidia-smi topo -m` (probes/nvidia_smi/topo_nvlink_parse.h: ParseTopoMatrix),
// then reads every cell through Between/NvlinkCount and every NIC's display name.
#include "fuzz/fuzz_support.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(nvidia_smi::ParseTopoMatrix(fuzz::AsText(data, size), fuzz::kOrigin), [](const auto& matrix) {
    for (const auto& [row, cells] : matrix.rows) {
      for (const auto& column : matrix.columns) fuzz::Keep(nvidia_smi::NvlinkCount(matrix.Between(row, column)));
      fuzz::Keep(cells.size());
    }
    for (const auto& nic : matrix.nics) fuzz::Keep(matrix.NicDisplayName(nic));
  });
  return 0;
}
