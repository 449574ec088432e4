// Every input the fuzz targets (fuzz/*_fuzz.cc) ever crashed a parser with is kept in
// fuzz/regressions/<target>/; each must now come back from that target's parser (a value or an
// error), without an exception. ci/fuzz replays the same files under ASan/UBSan; this test
// keeps them in the normal build. A folder with no parser here fails, so none is forgotten.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>

#include "harness/core/profile.h"
#include "harness/core/snapshot_manifest.h"
#include "harness/util/record_lines.h"
#include "probes/checkpoint_writer/checkpoint_format.h"
#include "probes/checkpoint_writer/checkpoint_parse.h"
#include "probes/cuda_p2p/cuda_p2p_parse.h"
#include "probes/fabric_reach/fabric_reach_parse.h"
#include "probes/gpudirect/gpudirect_parse.h"
#include "probes/ib_counters/ib_counters_parse.h"
#include "probes/ib_tools/ib_tools_parse.h"
#include "probes/ibverbs/ibverbs_parse.h"
#include "probes/iproute/iproute_parse.h"
#include "probes/isolation/isolation_record.h"
#include "probes/kernel_log/kernel_log_parse.h"
#include "probes/mpi_sweep/pair_results.h"
#include "probes/munge/munge_parse.h"
#include "probes/nccl_log/nccl_log_parse.h"
#include "probes/nccl_run/nccl_worker_protocol.h"
#include "probes/nccl_tests/nccl_tests_parse.h"
#include "probes/nccl_topo/nccl_topo_parse.h"
#include "probes/nic_pcie/nic_pcie_parse.h"
#include "probes/nvidia_smi/nvlink_errors_parse.h"
#include "probes/nvidia_smi/query_text_parse.h"
#include "probes/nvidia_smi/query_xml_parse.h"
#include "probes/nvidia_smi/topo_nvlink_parse.h"
#include "probes/nvml/nvml_parse.h"
#include "probes/pci_devices/pci_devices.h"
#include "probes/pcie_aer/pcie_aer_parse.h"
#include "probes/slurm/slurm_parse.h"
#include "probes/torchrun/job_log_parse.h"
#include "probes/torchrun/torchrun_parse.h"
#include "probes/versions/versions_parse.h"
#include "tests/support/test_support.h"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;

const fs::path kRegressions = fs::path(GPUCONFORM_SOURCE_DIR) / "fuzz" / "regressions";
const std::string kOrigin = "regression";

// Each target's parser calls, as its fuzz/<target>_fuzz.cc makes them; accessors that once
// crashed (SlurmNode::Partitions) are called too.
const std::map<std::string, std::function<void(const std::string&)>>& Parsers() {
  static const std::map<std::string, std::function<void(const std::string&)>> parsers = {
      {"checkpoint_writer_report", [](const std::string& t) { (void)checkpoint::ParseCheckpointReport(t, "n", kOrigin); }},
      {"checkpoint_writer_verify", [](const std::string& t) { (void)checkpoint::VerifyCheckpoint(t); }},
      {"cuda_p2p", [](const std::string& t) { (void)cuda_p2p::ParseCudaP2p(t, kOrigin); }},
      {"fabric_reach", [](const std::string& t) { (void)fabric_reach::ParseReach(t, kOrigin); }},
      {"ib_tools", [](const std::string& t) { (void)ib_tools::ParseIbPorts(t, kOrigin); }},
      {"ibverbs", [](const std::string& t) { (void)ibverbs::ParseIbverbs(t, kOrigin); }},
      {"iproute", [](const std::string& t) { (void)iproute::ParseIpLink(t, kOrigin), (void)iproute::ParseIpAddr(t, kOrigin); }},
      {"isolation_record", [](const std::string& t) {
         const auto record = isolation::ParseIsolationRecords(t, kOrigin);
         if (record) (void)isolation::Replay(*record, kOrigin);
       }},
      {"mpi_sweep", [](const std::string& t) { (void)mpi_sweep::ConfirmationPairs(mpi_sweep::ParsePairResults(t)); }},
      {"munge_decode", [](const std::string& t) { (void)munge::ParseDecodeReport(t, kOrigin); }},
      {"munge_files", [](const std::string& t) { (void)munge::ParseKeyDigest(t, kOrigin), (void)munge::ParseKeyStat(t, kOrigin), (void)munge::ParseClockReading(t, kOrigin); }},
      {"munge_messages", [](const std::string& t) { (void)munge::FindMungeFailure(t), (void)munge::InterpretUnmunge(1, t, t); }},
      {"nccl_log", [](const std::string& t) { (void)nccl_log::ParseNcclLog(t, kOrigin); }},
      {"nccl_run_worker", [](const std::string& t) { (void)nccl_run::ParseWorkerReady(t, "n"); }},
      {"nccl_tests_json", [](const std::string& t) { (void)nccl_tests::ParseNcclTestsJson(t, kOrigin); }},
      {"nccl_tests_text", [](const std::string& t) { (void)nccl_tests::ParseNcclTestsRuns(t, kOrigin), (void)nccl_tests::ParseNcclTestsOutput(t, kOrigin); }},
      {"nccl_topo", [](const std::string& t) { (void)nccl_topo::ParseTopologyXml(t, kOrigin); }},
      {"nic_pcie", [](const std::string& t) { (void)nic_pcie::ParseNicPcie(t, kOrigin); }},
      {"nvidia_smi_nvlink", [](const std::string& t) { (void)nvidia_smi::ParseNvlinkStatus(t, kOrigin); }},
      {"nvidia_smi_nvlink_errors", [](const std::string& t) { (void)nvidia_smi::ParseNvlinkErrors(t, kOrigin); }},
      {"nvidia_smi_query_xml", [](const std::string& t) { (void)nvidia_smi::ParseNvidiaSmiGpus(t, kOrigin); }},
      {"nvidia_smi_query_text", [](const std::string& t) { (void)nvidia_smi::ParseNvidiaSmiQueryText(t, kOrigin); }},
      {"kernel_log", [](const std::string& t) { (void)kernel_log::ParseKernelLog(t, kOrigin); }},
      {"nvidia_smi_topo", [](const std::string& t) { (void)nvidia_smi::ParseTopoMatrix(t, kOrigin); }},
      {"nvml", [](const std::string& t) {
         if (auto report = nvml::ParseNvml(t, kOrigin)) (void)nvml::ToGpuInventory(*report), (void)nvml::ToNvlinkStatus(*report);
       }},
      {"pci_devices", [](const std::string& t) { (void)pci_devices::ParsePciDevices(t, kOrigin); }},
      {"profile", [](const std::string& t) { (void)ParseProfile(t, "regression.yaml"); }},
      {"record_lines", [](const std::string& t) { (void)ParseRecordLines(t, kOrigin); }},
      {"slurm_conf", [](const std::string& t) { (void)slurm::ParseSlurmConfNodes(t, kOrigin), (void)munge::ParseAuthInfoSocket(t); }},
      {"slurm_gres", [](const std::string& t) { (void)slurm::ParseGres(t), (void)slurm::ExpandHostlist(t); }},
      {"slurm_gres_conf", [](const std::string& t) { (void)slurm::ParseGresConf(t, kOrigin); }},
      {"slurm_scontrol", [](const std::string& t) {
         if (auto nodes = slurm::ParseScontrolShowNode(t, kOrigin)) {
           for (const auto& node : *nodes) (void)node.StateFlags(), (void)node.Partitions(), (void)slurm::ParseGres(node.Field("Gres"));
         }
       }},
      {"slurm_squeue", [](const std::string& t) { (void)slurm::ParsePendingJobs(t, kOrigin); }},
      {"snapshot_manifest", [](const std::string& t) { (void)ParseSnapshotManifest(t, "manifest.yaml"); }},
      {"ib_counters", [](const std::string& t) { (void)ib_counters::ParseIbCounters(t, kOrigin); }},
      {"gpudirect", [](const std::string& t) { (void)gpudirect::ParseGpuDirect(t, kOrigin); }},
      {"pcie_aer", [](const std::string& t) { (void)pcie_aer::ParseAer(t, kOrigin); }},
      {"torchrun_job_log", [](const std::string& t) { (void)torchrun::ParseJobLog(t, kOrigin); }},
      {"torchrun_report", [](const std::string& t) { (void)torchrun::ParseTorchrunReport(t, "node1", kOrigin); }},
      {"versions", [](const std::string& t) { (void)versions::ParseKernelRelease(t, kOrigin), (void)versions::ParseNvidiaSmiVersions(t, kOrigin); }},
  };
  return parsers;
}

TEST(FuzzRegressions, EveryKeptInputComesBackFromItsParser) {
  if (!fs::is_directory(kRegressions)) GTEST_SKIP() << "no fuzz/regressions/ (no crash kept yet)";
  int inputs = 0;
  for (const auto& folder : fs::directory_iterator(kRegressions)) {
    const std::string target = folder.path().filename().string();
    const auto parser = Parsers().find(target);
    ASSERT_NE(parser, Parsers().end()) << "fuzz/regressions/" << target << " has no parser in this test";
    for (const auto& file : fs::directory_iterator(folder.path())) {
      EXPECT_NO_THROW(parser->second(test_support::ReadFile(file.path()))) << file.path();
      ++inputs;
    }
  }
  EXPECT_GT(inputs, 0);
}

}  // namespace
}  // namespace gpuconform
