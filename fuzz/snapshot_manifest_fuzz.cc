// Fuzzes a snapshot's manifest.yaml (harness/core/snapshot_manifest.h: ParseSnapshotManifest).
#include "fuzz/fuzz_support.h"
#include "harness/core/snapshot_manifest.h"

using namespace gpuconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Inspect(ParseSnapshotManifest(fuzz::AsText(data, size), "manifest.yaml"),
                [](const auto& manifest) { fuzz::Keep(manifest.fields.size()); });
  return 0;
}
