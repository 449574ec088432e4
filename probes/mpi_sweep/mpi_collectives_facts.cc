#include "probes/mpi_sweep/mpi_collectives_facts.h"

#include "harness/core/fact_reading.h"
#include "probes/mpi_sweep/mpi_collectives_probe.h"

namespace gpuconform::mpi_sweep {

const Result<CollectiveTables>& ReadCollectiveTables(const ClusterRaw& raw) {
  return raw.facts.Get<Result<CollectiveTables>>("mpi-collectives-tables", "", [&]() -> Result<CollectiveTables> {
    return facts::ParseOutput(raw.ClusterOutput(MpiCollectivesProbe().id), ParseCollectiveTables);
  });
}

}  // namespace gpuconform::mpi_sweep
