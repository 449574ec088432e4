// Fuzzes the checkpoint file check (probes/checkpoint_writer/checkpoint_format.h:
// VerifyCheckpoint): the bytes a reader finds on shared storage, torn or foreign included.
#include "fuzz/fuzz_support.h"
#include "probes/checkpoint_writer/checkpoint_format.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto state = checkpoint::VerifyCheckpoint(std::string_view(reinterpret_cast<const char*>(data), size));
  fuzz::Keep(state.problem);
  return 0;
}
