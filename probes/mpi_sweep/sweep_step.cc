#include "probes/mpi_sweep/sweep_step.h"

#include "harness/util/text_util.h"
#include "probes/mpi_sweep/mpi_sweep_worker.h"

namespace gpuconform::mpi_sweep {

namespace {

// mpirun's job settings for its own processes; a second mpirun that sees them believes it
// is one of the first job's processes. The user's own MCA settings (btl, plm, oob, pml)
// carry over to the step.
constexpr std::string_view kLauncherMcaPrefixes[] = {
    "OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir", "OMPI_MCA_shmem_RUNTIME_QUERY_hint",
    "OMPI_MCA_rmaps_ppr_n_pernode", "OMPI_MCA_mpi_oversubscribe", "OMPI_MCA_hwloc_base_"};

}  // namespace

bool KeptInStep(const std::string& entry) {
  const std::string name = entry.substr(0, entry.find('='));
  if (StartsWith(name, "PMIX_") || StartsWith(name, "PMI_")) return false;
  // srun reads its defaults from SLURM_* (SLURM_NTASKS, SLURM_GPUS_PER_NODE, ...): the step
  // takes only what the command line says, and finds the controller through SLURM_CONF.
  if (StartsWith(name, "SLURM_")) return name == "SLURM_CONF";
  if (StartsWith(name, "OMPI_")) {
    if (StartsWith(name, "OMPI_ALLOW_RUN_AS_ROOT")) return true;
    if (!StartsWith(name, "OMPI_MCA_")) return false;
    for (std::string_view prefix : kLauncherMcaPrefixes) {
      if (StartsWith(name, prefix)) return false;
    }
    return true;
  }
  return true;
}

std::vector<std::string> SweepStepCommand(const SweepStep& step, const std::vector<std::string>& environment) {
  std::vector<std::string> argv = {"env", "-i"};
  for (const auto& entry : environment) {
    if (entry.find('=') != std::string::npos && KeptInStep(entry)) argv.push_back(entry);
  }
  const std::string count = std::to_string(step.nodes.size());
  const std::string nodes = Join(step.nodes, ",");
  if (step.launcher == StepLauncher::kSrun) {
    // --overlap: the run's own step holds the allocation's CPUs and GPUs, and waits in it.
    // --gres=none: the step needs no GPU. --kill-on-bad-exit: one worker that dies ends the
    // others at once rather than leaving them to their deadline.
    const std::vector<std::string> words = {"srun", "--jobid=" + step.slurm_job_id, "--overlap", "--nodes=" + count,
                                            "--ntasks=" + count, "--ntasks-per-node=1", "--nodelist=" + nodes,
                                            "--mpi=pmix", "--gres=none", "--kill-on-bad-exit=1", "--quiet"};
    argv.insert(argv.end(), words.begin(), words.end());
  } else {
    const std::vector<std::string> words = {"mpirun", "-H", nodes, "-np", count, "--map-by", "node"};
    argv.insert(argv.end(), words.begin(), words.end());
  }
  argv.push_back(step.executable);
  argv.push_back(kSweepWorkerVerb);
  argv.insert(argv.end(), step.worker_args.begin(), step.worker_args.end());
  return argv;
}

}  // namespace gpuconform::mpi_sweep
