// The reason catalogue: every finding, error and skip code gpuconform can report.
// Contract: kReasons is the single place a code is declared. A code is stable kebab-case
// (dashboards and the JUnit type= attribute key on it), belongs to one fault class, and
// carries a one-line meaning and the operator's next step. ReasonCode (reason_code.h)
// refuses at compile time any code that is not in this table.
#pragma once

#include <string_view>

namespace gpuconform {

// Who has to act: the hardware (RMA, reseat, recable), the cluster's configuration (Slurm,
// MUNGE, NCCL environment, profile vs reality), or the tooling that gathers the facts.
// A missing tool, a timeout or unreadable output is tooling, never hardware.
enum class FaultClass { kHardware, kConfiguration, kTooling };

constexpr std::string_view FaultClassName(FaultClass fault_class) {
  switch (fault_class) {
    case FaultClass::kHardware: return "hardware";
    case FaultClass::kConfiguration: return "configuration";
    case FaultClass::kTooling: return "tooling";
  }
  return "tooling";
}

struct ReasonEntry {
  std::string_view code;
  FaultClass fault_class;
  std::string_view meaning;
  std::string_view next_step;
};

namespace reason_detail {
constexpr FaultClass kHw = FaultClass::kHardware;
constexpr FaultClass kConf = FaultClass::kConfiguration;
constexpr FaultClass kTool = FaultClass::kTooling;
}  // namespace reason_detail

// Grouped by fault class; within a group, roughly by suite.
inline constexpr ReasonEntry kReasons[] = {
    // ---- tooling: the fact could not be obtained, or gpuconform was asked wrongly ----
    {"not-applicable", reason_detail::kConf, "the profile says this check does not apply to this cluster",
     "nothing to fix; set the profile section (gpuconform profiles) if the check should run"},
    {"internal-error", reason_detail::kTool, "a gpuconform suite threw an exception: a defect in gpuconform",
     "report it with the message and the snapshot (gpuconform capture --out DIR)"},
    {"bad-profile", reason_detail::kTool, "the profile has a value gpuconform cannot use for this check",
     "fix the profile key the message names (see docs/profiles.md) and rerun"},
    {"tool-missing", reason_detail::kTool, "the command or library a probe needs is not installed on the node",
     "install the tool the message names on the node, or run from a snapshot that has its output"},
    {"timed-out", reason_detail::kTool, "a probe command passed its deadline and was killed",
     "run the command the message names by hand on the node to see why it hangs, then rerun"},
    {"run-terminated", reason_detail::kTool,
     "the run was terminated (a signal: the job's time limit, scancel, a CI job's timeout, Ctrl-C) or reached its "
     "own --deadline before this check was judged",
     "give the run more time (srun --time, the CI job's timeout, --deadline); the checks judged before it stand, and "
     "the report's run properties say by which signal and when"},
    {"run-incomplete", reason_detail::kTool,
     "the run had not judged this check when this report was written: a provisional report that the run replaces "
     "when it ends, so a run still shows it only when it was killed outright (SIGKILL past the time limit's "
     "KillWait, its node lost)",
     "look for why the run was killed (sacct -j JOB, the node's slurmd log); rerun with more time or on the "
     "nodes still up"},
    {"probe-failed", reason_detail::kTool, "a probe command exited non-zero or its file could not be read",
     "run the command the message names by hand on the node and fix what it reports"},
    {"file-absent", reason_detail::kTool, "the snapshot has no file for this probe",
     "capture the snapshot again with gpuconform capture --out DIR, or add the file the message names"},
    {"unavailable", reason_detail::kTool, "the probe output this check needs could not be obtained",
     "read the message for the command and node, run that command by hand, then rerun"},
    {"unparseable", reason_detail::kTool, "a probe output or snapshot file exists but could not be read or parsed",
     "open the file:line the message names; capture it again (gpuconform capture) if it is truncated or garbled"},
    {"not-reported", reason_detail::kTool, "the probe output does not state the value this check needs",
     "capture again with a newer driver, NCCL or tool; an older one may omit the field"},
    {"not-in-log", reason_detail::kTool, "the NCCL debug log lacks the lines this check reads",
     "rerun the NCCL job with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH and capture its log"},
    {"not-measured", reason_detail::kTool, "a measurement (bandwidth sweep, P2P copy) did not produce a result",
     "rerun on idle nodes; if it fails again run the sweep command the message names by hand"},
    {"rail-pair-not-measured", reason_detail::kTool,
     "an ib_write_bw or ib_write_lat pair on one rail failed before it measured the rail (perftest did not reach "
     "its peer over the management network, could not set up its buffers, was killed at its deadline or is "
     "missing), so the pair counts neither as slow (nor high) nor as healthy",
     "check that the two nodes the message names reach each other by host name with no firewall on perftest's TCP "
     "port (18515 and up), then run the perftest server and client the message names by hand on them"},
    {"size-not-measured", reason_detail::kTool,
     "a bandwidth table (the allreduce sweep, or a collective's table in the Collectives suite) has no row for a "
     "size the profile judges",
     "rerun up to the profile's largest size for that collective (allreduce.size_bytes, collectives[].size_bytes); "
     "GPUCONFORM_ALLREDUCE_MAX_BYTES caps both"},
    {"node-count-unknown", reason_detail::kTool, "the number of nodes in the allreduce run is not known",
     "capture the snapshot with gpuconform capture under srun so the node list is recorded"},
    {"tool-error", reason_detail::kTool, "the listing tool reported an error, so devices may be missing from it",
     "run ibstat (or the tool the message names) by hand and fix the error it prints"},
    {"elided", reason_detail::kTool, "nvidia-smi left GPUs out of its output (\"...\"), so they cannot be judged",
     "capture nvidia-smi nvlink -s on a terminal wide enough, or with a newer driver, and rerun"},
    {"no-nodes", reason_detail::kTool, "no node reported the file this cluster-wide check needs",
     "capture the snapshot on every node (srun --ntasks-per-node=1 gpuconform capture --out DIR)"},
    {"nonce-mismatch", reason_detail::kTool, "the nodes hashed their MUNGE keys with different nonces",
     "capture all nodes in one gpuconform capture run so they share the nonce"},
    {"self-decode-not-run", reason_detail::kTool, "MUNGE's decode on the same node was not run or not recorded",
     "run munge -n | unmunge on the node by hand and capture again"},
    {"untested", reason_detail::kTool, "no MUNGE credential to or from this node could be tested",
     "make the node's munge-decode.txt available (gpuconform capture on every node) and rerun"},
    {"no-controller-view", reason_detail::kTool, "scontrol show node output is missing",
     "run scontrol show node on a node that reaches slurmctld and capture again"},
    {"no-gres-conf", reason_detail::kTool, "the node's gres.conf could not be read",
     "check that /etc/slurm/gres.conf exists and is readable on the node, then capture again"},
    {"no-gpu-count", reason_detail::kTool, "the node's GPU count could not be read from nvidia-smi",
     "run nvidia-smi -q -x on the node; fix the driver if it fails, then capture again"},
    {"not-probed", reason_detail::kTool, "slurmd's reachability was not probed for this node",
     "check that scontrol show node lists an address for the node, then rerun"},
    {"no-queue", reason_detail::kTool, "the pending-job queue could not be read",
     "run squeue -h -t PD -o \"%i|%P|%u|%r\" on a node that reaches slurmctld"},
    {"no-port-state", reason_detail::kTool, "the InfiniBand port listing does not show port states",
     "capture ibstat (or ibv_devinfo) output on the node instead of the listing the message names"},
    {"rate-not-shown", reason_detail::kTool, "the InfiniBand port listing does not show port rates",
     "capture ibstat on the node, which shows each port's rate"},
    {"no-rails", reason_detail::kConf, "no InfiniBand port has the link layer the profile expects",
     "check infiniband.link_layer in the profile against ibstat; fix the profile or the HCA's port mode"},
    {"no-gpus", reason_detail::kTool, "the CUDA runtime sees no GPU, so no GPU pair could be judged",
     "run nvidia-smi on the node; fix the driver or CUDA_VISIBLE_DEVICES, then rerun"},
    {"no-nics", reason_detail::kTool, "sysfs lists no RDMA NIC on the node",
     "check /sys/class/infiniband on the node and that the RDMA driver (mlx5_ib) is loaded"},
    {"not-asked", reason_detail::kTool, "peer access between GPUs was not queried",
     "rerun on the node with the CUDA runtime available (gpuconform run, not a partial snapshot)"},
    {"not-installed", reason_detail::kTool, "the component is not installed on any node, so its version is unknown",
     "install the component the message names, or remove it from the profile's software section"},
    {"slurm-launch-refused", reason_detail::kConf,
     "Slurm could not start the run's task on the node: its slurmd or munged did not answer or refused",
     "on the node: systemctl status munge slurmd, and munge -n | ssh NODE unmunge; fix, then scontrol update "
     "nodename=NODE state=resume"},
    {"task-exited-at-start", reason_detail::kConf,
     "the run's task on the node ended (an exit status or a signal) before the ranks met: gpuconform cannot start "
     "in that node's image",
     "read srun's words in the message (exit 127: a command or wrapper not found; a loader error: a missing "
     "library; a signal: a crash), run srun -w NODE gpuconform version, and fix the node's image"},
    {"world-not-formed", reason_detail::kConf, "the ranks did not form one world",
     "run scontrol show node and check slurmd, PMIx (srun --mpi=pmix) and the firewall between nodes"},
    {"world-stalled", reason_detail::kConf, "a collective among the ranks stopped answering",
     "find the rank the message names; check its node with scontrol show node and dmesg"},
    {"allocation-failed", reason_detail::kConf, "srun could not allocate the GPUs the profile asks for",
     "run srun --gpus-per-node=N hostname by hand and fix the Slurm GRES it complains about"},
    {"no-observation", reason_detail::kTool, "the Checkpoint probe output lacks a record this check reads",
     "rerun the Checkpoint suite; a truncated output means the probe was killed"},
    {"no-capacity", reason_detail::kTool, "the checkpoint directory's free space was not measured",
     "run df on the checkpoint directory on the node the message names"},
    {"no-cleanup", reason_detail::kTool, "no node reported removing the Checkpoint run directory",
     "rerun the Checkpoint suite and check rank 0's output"},
    {"no-kills", reason_detail::kTool, "no writer kills were recorded, so crash safety was not tested",
     "rerun the Checkpoint suite with checkpoint.torture_kills > 0"},
    {"no-target", reason_detail::kConf, "the Checkpoint suite has no usable target directory",
     "pass --checkpoint-dir DIR on the shared storage, or set checkpoint.dir in the profile"},
    {"demonstration-inconclusive", reason_detail::kTool,
     "unguarded concurrent writers did not tear a checkpoint, so the test shows nothing",
     "rerun with more ranks or a larger checkpoint.test_file_bytes"},
    {"publish-failed", reason_detail::kTool, "the Checkpoint publish test could not run on a node",
     "read the problem the message names (permissions, space) on the checkpoint directory"},
    {"read-failed", reason_detail::kTool, "the Checkpoint read-throughput test could not run on a node",
     "read the problem the message names (permissions, missing file) on the checkpoint directory"},
    {"write-failed", reason_detail::kTool, "the Checkpoint single-writer test could not run on a node",
     "read the problem the message names (permissions, space) on the checkpoint directory"},
    {"writer-failed", reason_detail::kTool, "a killed Checkpoint writer reported a problem before it was killed",
     "read the writer's problem in the message and fix the checkpoint directory"},
    {"no-gpu-listed", reason_detail::kTool, "nvidia-smi answered but lists no GPU, so no GPU's health could be judged",
     "run nvidia-smi -q on the node; a GPU named in an \"Unable to determine the device handle\" line is lost"},
    {"launch-outcome-unknown", reason_detail::kTool,
     "the job's output shows neither a launch failure gpuconform recognises nor a completed torchrun launch",
     "give gpuconform the job's whole output, both streams (srun -l ... >job.log 2>&1), and read the last error line "
     "the message quotes"},
    {"torture-failed", reason_detail::kTool, "the Checkpoint crash-torture test could not run on a node",
     "read the problem the message names on the checkpoint directory"},
    {"dcgm-host-engine", reason_detail::kTool,
     "dcgmi could not reach DCGM's host engine (nv-hostengine), so no diagnostic ran on the node",
     "start the host engine on the node (systemctl start nvidia-dcgm, or nv-hostengine) and rerun"},
    {"dcgm-internal-error", reason_detail::kTool,
     "DCGM's diagnostic failed inside itself (DCGM_FR_INTERNAL), so its run says nothing about the GPUs",
     "rerun the diagnostic with the whole node to itself (outside a cgroup-limited step: sbatch --exclusive, or "
     "as root on the node); report it to NVIDIA with dcgmi's log if it repeats"},

    // ---- hardware: a device, link or cable does not perform as it must ----
    {"gpu-count", reason_detail::kHw, "the driver sees fewer or more GPUs than the profile expects",
     "run nvidia-smi -L and dmesg | grep -i xid; reseat or RMA a fallen-off GPU"},
    {"links-inactive", reason_detail::kHw, "a GPU has no active NVLink",
     "run nvidia-smi nvlink -s on the node; reseat the GPU or RMA it"},
    {"link-inactive", reason_detail::kHw, "an NVLink of a GPU is inactive",
     "run nvidia-smi nvlink -s -i GPU; reset the GPU (nvidia-smi -r) or reseat / RMA it"},
    {"link-slow", reason_detail::kHw, "an NVLink runs below the profile's speed",
     "run nvidia-smi nvlink -s; a degraded link needs a GPU reset or reseat"},
    {"link-not-to-nvswitch", reason_detail::kHw, "an NVLink goes to another GPU instead of an NVSwitch",
     "check the baseboard against the profile (nvidia-smi topo -m); the profile may describe another board"},
    {"nvlink-count", reason_detail::kHw, "a GPU or GPU pair has another number of NVLinks than the profile expects",
     "run nvidia-smi nvlink -s and nvidia-smi topo -m; reseat or RMA the GPU"},
    {"pcie-path", reason_detail::kHw, "two GPUs talk over PCIe where the profile expects NVLink",
     "run nvidia-smi topo -m; check the NVLinks and the fabric manager"},
    {"pcie-gen", reason_detail::kHw, "a PCIe link trained below its maximum generation",
     "run lspci -vv on the device (LnkSta vs LnkCap); reseat the card or its riser"},
    {"pcie-width", reason_detail::kHw, "a PCIe link trained below its maximum width",
     "run lspci -vv on the device (LnkSta vs LnkCap); reseat the card or its riser"},
    {"fabric-status", reason_detail::kHw, "the NVSwitch fabric reports an error status for a GPU",
     "run nvidia-smi -q | grep -A3 Fabric; restart nvidia-fabricmanager, RMA the tray if it persists"},
    {"port-state", reason_detail::kHw, "an InfiniBand rail port is not Active",
     "run ibstat; check the cable, the switch port and the subnet manager"},
    {"port-rate", reason_detail::kHw, "an InfiniBand rail port is Active below the profile's rate",
     "run ibstat; replace the cable or transceiver, check the switch port speed"},
    {"rail-count", reason_detail::kHw, "the node has fewer rail NICs than the profile expects",
     "run ibstat and lspci | grep -i mellanox; reseat or replace the missing HCA"},
    {"no-local-nic", reason_detail::kHw, "a GPU has no rail NIC under its own PCIe switch",
     "run nvidia-smi topo -m; check that every HCA is seated in its slot"},
    {"no-nic", reason_detail::kHw, "nvidia-smi topo -m shows no NIC at all",
     "run lspci | grep -i mellanox; reseat the HCAs or load the mlx5 driver"},
    {"nic-count", reason_detail::kHw, "NCCL's topology has fewer NICs than the profile expects",
     "run ibstat and nvidia-smi topo -m; reseat the missing HCA"},
    {"nic-speed", reason_detail::kHw, "a NIC in NCCL's topology is slower than the profile expects",
     "run ibstat; replace the cable or check the switch port speed"},
    {"gpu-nic-affinity", reason_detail::kHw, "a GPU's nearest NIC is not under its PCIe switch",
     "run nvidia-smi topo -m; check the HCA slots against the board's reference layout"},
    {"no-peer-access", reason_detail::kHw, "two GPUs cannot access each other's memory (P2P)",
     "run nvidia-smi topo -p2p r; check the NVLinks, and ACS / IOMMU settings in the BIOS"},
    {"p2p-below-floor", reason_detail::kHw, "GPU-to-GPU copy bandwidth is below the profile's floor",
     "run nvidia-smi nvlink -s on the node; a slow pair points at a degraded link or GPU"},
    {"p2p-not-uniform", reason_detail::kHw, "one GPU pair copies much slower than the others",
     "run nvidia-smi nvlink -s for the GPUs named; reset or reseat the slow one"},
    {"busbw-below-floor", reason_detail::kHw, "allreduce bus bandwidth is below the profile's floor",
     "run ibstat on every node and look for slow-link / slow-node findings to find the culprit"},
    {"fabric-efficiency", reason_detail::kHw, "allreduce reaches too small a share of the fabric's bandwidth",
     "run ibstat on every node; check the switch fabric for congestion or down links"},
    {"slow-link", reason_detail::kHw, "the link between two nodes is slow in pairwise allreduce",
     "run ibstat on both nodes and check the cable and switch ports between them"},
    {"slow-node", reason_detail::kHw, "every pair a node is in is slow",
     "drain the node (scontrol update nodename=N state=drain) and check its HCAs with ibstat"},
    {"isolated-node", reason_detail::kHw,
     "a collective fails in every test that holds this node and passes without it, confirmed with two different "
     "good nodes (the isolation's search, cluster/isolation.txt)",
     "drain the node; check its fabric NIC (ibstat, ethtool -S, ip -s link), cable and switch port"},
    {"isolated-slow-node", reason_detail::kHw,
     "a collective completes below its floor in every test that holds this node and meets it without, confirmed "
     "with two different good nodes",
     "drain the node; check its fabric NIC's link rate and errors (ibstat, ethtool), cable and switch port"},
    {"isolated-pair", reason_detail::kHw,
     "two nodes fail a collective together while each passes with other nodes: the path between them",
     "check the route, firewall and switch ports between the two nodes (both work with every other node, so "
     "neither is drained); ib_write_bw between them shows the link"},
    {"isolated-boundary", reason_detail::kHw,
     "two groups of nodes each pass a collective alone but fail or fall below the floor together: what joins them",
     "check the links the two groups share (spine uplinks, the switch or block trunk the finding names); no node "
     "is drained"},
    {"isolation-inconclusive", reason_detail::kHw,
     "a collective over the allocation fails or falls below its floor, but the isolation could not name the "
     "cause: results contradicted each other (a flaky node) or its deadline or round budget ran out",
     "read cluster/isolation.txt for the tests that failed; rerun with a longer isolation.deadline_s, or run the "
     "suspects' collective again by hand"},
    {"allreduce-results-wrong", reason_detail::kHw, "the allreduce returned wrong sums",
     "drain the nodes involved and run dcgmi diag -r 3; wrong sums point at a faulty GPU or NIC"},
    {"collective-busbw-below-floor", reason_detail::kHw,
     "alltoall, allgather or reduce_scatter bus bandwidth is below the profile's floor for that collective",
     "check the NIC the ranks used (OMPI_MCA_btl_tcp_if_include for MPI, NCCL_IB_HCA and NCCL_SOCKET_IFNAME for "
     "NCCL); if AllreduceBandwidth passes, look at the "
     "cross-rail and spine links that these collectives cross and rings inside a rail do not"},
    {"collective-results-wrong", reason_detail::kHw,
     "alltoall, allgather or reduce_scatter delivered wrong elements (a block missing, swapped or corrupted)",
     "drain the nodes involved and run dcgmi diag -r 3; check the NICs' error counters (ethtool -S, ibstat)"},
    {"collective-latency-high", reason_detail::kHw,
     "a small allreduce (8 B to 64 KiB, latency-bound) took longer than the profile's ceiling",
     "check that the ranks use the fabric and not a TCP fallback or the management NIC (NCCL's NET/ lines, "
     "OMPI_MCA_btl_tcp_if_include), the NICs' interrupt moderation (ethtool -c), and the switches' congestion; "
     "if busbw at large sizes passes, the path's per-message cost is at fault"},
    {"device-tool-hung", reason_detail::kHw,
     "a tool that talks to the node's own GPUs or HCAs hung while their driver is loaded: a wedged device",
     "drain the node; read dmesg for Xid or mlx5 errors, try nvidia-smi -r (GPU) or a reboot, RMA if it repeats"},
    {"fabric-interface-down", reason_detail::kHw, "the node's fabric interface is not UP",
     "ip link set IFNAME up; if it stays down check the cable and the switch port"},
    {"fabric-unreachable", reason_detail::kHw, "a node cannot connect to another over the fabric",
     "ping the address the message names; check the cable, the port (ibstat) and the routes"},
    {"ecc-uncorrectable", reason_detail::kHw, "a GPU has uncorrectable ECC errors since the driver loaded",
     "drain the node and reset the GPU (nvidia-smi -r) so the memory is remapped; RMA if errors return"},
    {"sram-ecc", reason_detail::kHw, "a GPU has uncorrectable on-chip SRAM errors, or correctable ones past the limit",
     "drain the node and run dcgmi diag -r 3; SRAM errors cannot be remapped, so RMA the GPU if they persist"},
    {"ecc-aggregate-high", reason_detail::kHw, "a GPU's lifetime DRAM ECC error count is past the profile's limit",
     "drain the node and run dcgmi diag -r 3 on the GPU; RMA it if the count keeps rising"},
    {"row-remap-failure", reason_detail::kHw, "a GPU failed to remap a DRAM row: it is out of spare rows",
     "drain the node and RMA the GPU (NVIDIA: a remapping failure means the GPU must be replaced)"},
    {"row-remap-pending", reason_detail::kHw, "a GPU has a row remap waiting for a GPU reset",
     "drain the node, reset the GPU (nvidia-smi -r, or reboot) to activate the remap, then resume the node"},
    {"row-remap-count", reason_detail::kHw,
     "a GPU has remapped more rows for uncorrectable errors than the profile allows",
     "drain the node and RMA the GPU: its spare rows are running out"},
    {"retired-pages-pending", reason_detail::kHw, "a GPU has a page retirement waiting for the driver to reload",
     "drain the node and reboot it (or reload the driver) so the retired pages are blacklisted"},
    {"retired-pages-count", reason_detail::kHw, "a GPU has retired more memory pages than the profile allows",
     "drain the node and RMA the GPU: its retirement table is nearly full"},
    {"clock-slowdown", reason_detail::kHw,
     "a GPU's clocks are held down by a hardware slowdown, thermal or power-brake event",
     "check the GPU's temperature and cooling (nvidia-smi -q -d TEMPERATURE,PERFORMANCE) and the chassis' power "
     "brake signal (PSU, BMC event log); drain the node until the event clears"},
    {"gpu-inaccessible", reason_detail::kHw, "the driver names a GPU it cannot open: it has fallen off the bus",
     "drain the node and reboot it; check the GPU's power and seating and dmesg for Xid 79; RMA if it repeats"},
    {"gpu-not-at-address", reason_detail::kHw, "a GPU the profile expects at a PCIe address is not listed there",
     "run lspci -d 10de: and dmesg | grep -i xid; reseat or RMA the missing GPU, or fix gpu_health.pcie_bus_ids"},
    {"xid-hardware", reason_detail::kHw, "the kernel log has an XID NVIDIA attributes to the GPU's hardware",
     "follow the action the message gives for that XID (NVIDIA's XID catalogue): drain, reset or reboot, RMA if it "
     "repeats"},
    {"ib-link-errors", reason_detail::kHw,
     "an InfiniBand port's signal error counters (symbol errors, recoveries, integrity) are above their limits",
     "reseat or replace the cable or transceiver the message names and check its switch port; clear the counters "
     "(perfquery -x -R) and watch the rate"},
    {"rail-bandwidth-low", reason_detail::kHw,
     "ib_write_bw on one rail of the node is below the floor in every pair it was measured in, its partners passing "
     "with other nodes",
     "check the rail's HCA and cable on the node (mlxlink -d <hca>, ibstat), then reseat or replace the cable or "
     "the HCA"},
    {"rail-pair-slow", reason_detail::kHw,
     "ib_write_bw between two nodes on one rail is below the floor while both pass with other nodes",
     "the fabric path between the two nodes (a leaf or spine switch port, a cable): run ibdiagnet and read the "
     "switch ports' counters on that path"},
    {"rail-latency-high", reason_detail::kHw,
     "ib_write_lat on one rail of the node is more than twice the rail's median latency in every pair it was "
     "measured in, its partners meeting it with other nodes",
     "check the rail's HCA, cable and link on the node (mlxlink -d <hca> for the speed, width and FEC it "
     "negotiated; ibstat), and the switch port it reaches"},
    {"rail-pair-latency-high", reason_detail::kHw,
     "ib_write_lat between two nodes on one rail is more than twice the rail's median while both nodes meet it "
     "with other nodes",
     "the fabric path between the two nodes (extra hops through the spine, a congested or degraded switch port): "
     "run ibdiagnet and ibtracert between the two nodes"},
    {"ib-link-error-rate", reason_detail::kHw,
     "an InfiniBand port's error counters rose faster than the profile's link_counters rate since the node's "
     "previous run in the history, even where the count is within its limit",
     "reseat or replace the cable or transceiver the message names and check its switch port before the link "
     "fails; watch the next runs' rate (run --history)"},
    {"pcie-aer-error-rate", reason_detail::kHw,
     "a PCIe device's correctable AER errors rose faster than the profile's link_counters rate since the node's "
     "previous run in the history, even where the count is within its limit",
     "reseat the device the message names (or its riser) and check the slot before the link fails; RMA it if the "
     "rate stays"},
    {"nvlink-errors", reason_detail::kHw,
     "an NVLink's CRC or replay error counters are above their limits since the driver loaded",
     "reseat the GPU the message names and check its NVLink connector; watch the rate over the next runs (run "
     "--history)"},
    {"nvlink-recovery", reason_detail::kHw, "an NVLink retrained (its recovery counter is not 0)",
     "reseat the GPU (or its baseboard) and check the NVLink connector; RMA the GPU if it recovers again"},
    {"nvlink-error-rate", reason_detail::kHw,
     "an NVLink's error counters rose faster than the profile's link_counters rate since the node's previous run "
     "in the history",
     "drain the node, reseat the GPU and check the NVLink connector before the link fails (an Xid 149 or 74 "
     "follows)"},
    {"ib-link-downed", reason_detail::kHw, "an InfiniBand port's link went down and retrained",
     "check the cable's seating and the peer (switch) port's log; recable if it repeats"},
    {"pcie-aer-fatal", reason_detail::kHw,
     "a PCIe device counted or logged a fatal AER error (for example Surprise Down: its link dropped)",
     "drain the node; reseat the device the message names (a GPU's baseboard or riser cable, a NIC's riser) and "
     "check its slot; RMA it if it repeats"},
    {"pcie-aer-nonfatal", reason_detail::kHw,
     "a PCIe device counted or logged uncorrected non-fatal AER errors: transactions were lost on its link",
     "reseat the device the message names and check its slot (for a root or switch port, the device below it); "
     "RMA it if the errors come back"},
    {"pcie-aer-correctable", reason_detail::kHw,
     "a PCIe device's correctable AER errors are above their limit: the link's signal is marginal",
     "reseat the device the message names or its riser and check the slot; watch the count across runs and RMA "
     "it if it keeps climbing"},
    {"read-below-floor", reason_detail::kHw, "aggregate checkpoint read bandwidth is below the profile's floor",
     "check the storage servers and the network path to them; compare with fio on one node"},
    {"dataload-below-floor", reason_detail::kHw,
     "a node's DataLoader (num_workers=4) reads the shared data below the profile's torchrun floor",
     "check that node's mount of the shared storage (options, its NIC to the storage); compare with fio there"},
    {"dcgm-diag-failed", reason_detail::kHw, "a DCGM diagnostic test failed on a GPU",
     "drain the node and follow DCGM's own suggestion the message quotes; rerun the level on the GPU after a reset, "
     "and reseat or RMA it if the same test fails again"},
    {"copy-bandwidth-low", reason_detail::kHw,
     "nvbandwidth copied below the profile's floor between host and GPU, or between two GPUs",
     "a host copy: read the GPU's PCIe link (nvidia-smi -q: generation and width) for a downtrained link and reseat "
     "it; a GPU pair: read nvidia-smi nvlink -s on both GPUs for a link down, then reset or RMA"},

    // ---- configuration: Slurm, MUNGE, NCCL, MPI, storage and profile vs reality ----
    {"dcgm-fabric-not-ready", reason_detail::kConf,
     "CUDA could not start on the node ('system not yet initialized'): Fabric Manager has not set up the NVSwitch "
     "fabric, so no GPU can run work",
     "start Fabric Manager (systemctl enable --now nvidia-fabricmanager, its version matching the driver's), "
     "then rerun; no GPU is at fault"},
    {"metric-regression", reason_detail::kConf,
     "a metric moved the wrong way past its tolerance compared with the baseline run (--baseline)",
     "see what changed since the baseline (gpuconform diff BASELINE.json NEW.json: image tag, driver, NCCL, "
     "firmware in the Software suite); rerun to rule out a noisy node; if the change is intended, write a new "
     "baseline (gpuconform baseline --from NEW.json --out FILE)"},
    {"xid-driver", reason_detail::kConf,
     "the kernel log has an XID NVIDIA attributes to the driver or GPU firmware (GSP)",
     "reset the GPU (nvidia-smi -r) or reboot; if it repeats, update the NVIDIA driver (NVIDIA's XID catalogue)"},
    {"ecc-disabled", reason_detail::kConf, "a GPU runs with ECC off where the profile requires it",
     "nvidia-smi -i GPU -e 1, then reset the GPU or reboot for the pending mode to take effect"},
    {"persistence-mode", reason_detail::kConf, "a GPU's persistence mode is not what the profile says",
     "enable nvidia-persistenced (systemctl enable --now nvidia-persistenced), or nvidia-smi -pm 1"},
    {"gpu-model", reason_detail::kConf, "a GPU is not the model the profile expects",
     "pick the profile for this node type (gpuconform profiles), or move the node to its own partition"},
    {"fabric-not-completed", reason_detail::kConf, "a GPU has not joined the NVSwitch fabric",
     "systemctl status nvidia-fabricmanager; start it with the driver's matching version"},
    {"gpu-undeclared", reason_detail::kConf, "NCCL's topology lists a GPU as a PCI device without <gpu>",
     "unset NCCL_TOPO_FILE or give the file for this machine type"},
    {"gpu-not-on-pcie", reason_detail::kConf, "a GPU in NCCL's topology is not inside a <pci>",
     "unset NCCL_TOPO_FILE or give the file for this machine type"},
    {"gpu-no-gdr", reason_detail::kConf, "NCCL's topology has GPUDirect RDMA off for a GPU",
     "load nvidia-peermem (modprobe nvidia-peermem) and check NCCL_NET_GDR_LEVEL"},
    {"nic-no-gdr", reason_detail::kConf, "NCCL's topology has GPUDirect RDMA off for a NIC",
     "load nvidia-peermem (modprobe nvidia-peermem) on the node"},
    {"nic-link-layer", reason_detail::kConf, "a NIC's link layer disagrees with its PCI class",
     "check the HCA port mode (mlxconfig LINK_TYPE_P1) against the profile's link layer"},
    {"topo-file-bad-busid", reason_detail::kConf, "the NCCL_TOPO_FILE has a malformed PCI bus id",
     "fix or regenerate the file with NCCL_TOPO_DUMP_FILE on this machine type"},
    {"topo-file-class-mismatch", reason_detail::kConf, "a device in NCCL_TOPO_FILE has another class on the node",
     "use a topology file dumped on this machine type (NCCL_TOPO_DUMP_FILE), or unset NCCL_TOPO_FILE"},
    {"topo-file-id-mismatch", reason_detail::kConf, "a device in NCCL_TOPO_FILE has another vendor:device id",
     "use a topology file dumped on this machine type (NCCL_TOPO_DUMP_FILE), or unset NCCL_TOPO_FILE"},
    {"topo-file-device-missing", reason_detail::kConf, "a device in NCCL_TOPO_FILE does not exist on the node",
     "use a topology file dumped on this machine type (NCCL_TOPO_DUMP_FILE), or unset NCCL_TOPO_FILE"},
    {"topo-file-more", reason_detail::kConf, "more devices of NCCL_TOPO_FILE do not match than are listed",
     "use a topology file dumped on this machine type (NCCL_TOPO_DUMP_FILE), or unset NCCL_TOPO_FILE"},
    {"gres-count", reason_detail::kConf, "Slurm advertises another GPU count than the profile expects",
     "fix Gres= for the node in slurm.conf, then scontrol reconfigure"},
    {"gres-type", reason_detail::kConf, "Slurm advertises another GPU type than the profile expects",
     "fix the GPU type in Gres= in slurm.conf and gres.conf, then scontrol reconfigure"},
    {"gres-registration-rejected", reason_detail::kConf, "slurmctld rejected the node's GRES registration",
     "compare slurm.conf Gres= with the node's gres.conf, fix one, restart slurmd"},
    {"gres-conf-missing", reason_detail::kConf, "slurm.conf gives the node GPUs but its gres.conf declares none",
     "add the GPU lines to the node's gres.conf (or AutoDetect=nvml), restart slurmd"},
    {"gres-conf-count", reason_detail::kConf, "the node's gres.conf declares another GPU count than slurm.conf",
     "make gres.conf and slurm.conf Gres= agree, restart slurmd"},
    {"gres-conf-types", reason_detail::kConf, "the node's gres.conf declares other GPU types than slurm.conf",
     "make the Type= in gres.conf match slurm.conf Gres=, restart slurmd"},
    {"gres-vs-hardware", reason_detail::kConf, "Slurm advertises another GPU count than the node has",
     "fix Gres= in slurm.conf to the nvidia-smi -L count (or find the fallen GPU), then scontrol reconfigure"},
    {"node-unusable", reason_detail::kConf, "Slurm has the node down, drained or not responding",
     "scontrol show node N for the Reason; fix it, then scontrol update nodename=N state=resume"},
    {"job-pending-on-broken-node", reason_detail::kConf, "a job is pending because of a broken node",
     "fix or drain the node the job waits for (scontrol show job ID)"},
    {"slurmd-unreachable", reason_detail::kConf, "slurmd on the node refuses connections",
     "systemctl status slurmd on the node; check the firewall for SlurmdPort"},
    {"allocation-gpus", reason_detail::kConf, "srun --gpus-per-node handed a node another number of GPUs",
     "check GresTypes=gpu in slurm.conf and the File= lines of the node's gres.conf, restart slurmd"},
    {"no-task", reason_detail::kConf, "the node ran no task of the step",
     "run srun --ntasks-per-node=1 over every node of the allocation"},
    {"procid", reason_detail::kConf, "the ranks' SLURM_PROCID values are not 0..N-1 once each",
     "launch with srun (or mpirun) one task per GPU or node as the profile expects"},
    {"ntasks", reason_detail::kConf, "the ranks disagree on SLURM_NTASKS or it does not match the rank count",
     "launch every rank in one srun step; do not mix steps"},
    {"nodeid", reason_detail::kConf, "SLURM_NODEID is inconsistent across the ranks of a node or across nodes",
     "launch every rank in one srun step; do not mix steps"},
    {"oversubscribed", reason_detail::kConf, "a node runs more tasks than the step asked for",
     "check --ntasks-per-node and the job's other steps on the node"},
    {"master-addr-differs", reason_detail::kConf, "the ranks disagree on MASTER_ADDR",
     "set MASTER_ADDR once in the batch script, from scontrol show hostnames | head -1"},
    {"master-addr-outside", reason_detail::kConf, "MASTER_ADDR is not a node of the allocation",
     "set MASTER_ADDR from the allocation: scontrol show hostnames $SLURM_JOB_NODELIST | head -1"},
    {"master-addr-not-node0", reason_detail::kConf,
     "MASTER_ADDR names a node of the allocation other than the one with SLURM_NODEID 0, which hosts the rendezvous",
     "set MASTER_ADDR from the allocation's first host: scontrol show hostnames $SLURM_JOB_NODELIST | head -1"},
    {"master-port", reason_detail::kConf, "MASTER_PORT is unset, inconsistent or not a valid port",
     "export one MASTER_PORT (1024-65535) in the batch script"},
    // A failed training job's own output (probes/torchrun/job_log_parse.h).
    {"rendezvous-port-in-use", reason_detail::kConf,
     "torchrun's rendezvous port was already in use on the node: most often a second launcher of the same job",
     "start one torchrun per node (srun --ntasks-per-node=1, --node_rank=$SLURM_NODEID); else free the port "
     "(ss -ltnp 'sport = :PORT') or choose another --master_port"},
    {"rendezvous-unreachable", reason_detail::kConf,
     "the launchers could not reach the rendezvous (MASTER_ADDR:MASTER_PORT or --rdzv_endpoint) in time",
     "set the endpoint to the first allocated host (scontrol show hostnames $SLURM_JOB_NODELIST | head -1), start "
     "torchrun on every node, and check the port is open between the nodes (nc -zv HOST PORT)"},
    {"master-addr-unresolvable", reason_detail::kConf, "the rendezvous host's name does not resolve on the node",
     "set MASTER_ADDR to a name every node resolves (getent hosts NAME) or to the first allocated host's IP address"},
    {"socket-ifname-not-on-node", reason_detail::kConf,
     "NCCL_SOCKET_IFNAME or GLOO_SOCKET_IFNAME names an interface the node does not have",
     "set it to the node's fabric interface (ip -o -4 addr shows which carries the cluster network) or an exclusion "
     "list such as ^docker,lo"},
    {"node-rank-from-procid", reason_detail::kConf,
     "torchrun's node_rank comes from SLURM_PROCID while several tasks run per node",
     "use --node_rank=$SLURM_NODEID and srun --ntasks-per-node=1, one torchrun per node"},
    {"deepspeed-launcher-under-srun", reason_detail::kConf,
     "the standalone deepspeed launcher runs under srun and starts its own workers, so launchers fight over ranks",
     "run srun --ntasks-per-node=1 torchrun ... train.py --deepspeed, or deepspeed --launcher slurm outside srun"},
    {"torchrun-crashed", reason_detail::kConf, "torchrun itself raised an exception before it started the workers",
     "read the exception the message quotes (with torch's and Python's versions); install a torch built for the "
     "node's Python, or patch the image's launcher (docs/operating.md#the-torchrun-launcher), and check torchrun "
     "--help runs"},
    {"mpi-pinned-forbidden", reason_detail::kConf, "Open MPI's TCP traffic is pinned to a forbidden interface",
     "set OMPI_MCA_btl_tcp_if_include to the fabric interface"},
    {"mpi-unpinned", reason_detail::kConf, "Open MPI's TCP traffic is not pinned to the fabric interface",
     "set OMPI_MCA_btl_tcp_if_include to the fabric interface"},
    {"nccl-socket-forbidden", reason_detail::kConf, "NCCL_SOCKET_IFNAME selects an interface the profile forbids",
     "set NCCL_SOCKET_IFNAME to the fabric interface (see the profile's nccl.socket_ifname)"},
    {"nccl-socket-not-fabric", reason_detail::kConf, "NCCL_SOCKET_IFNAME excludes the fabric interface",
     "set NCCL_SOCKET_IFNAME to the fabric interface (see the profile's nccl.socket_ifname)"},
    {"forbidden-interface", reason_detail::kConf, "NCCL sends traffic over an interface the profile forbids",
     "set NCCL_SOCKET_IFNAME to the fabric interface, or fix NCCL_IB_HCA so NET/IB is used"},
    {"not-fabric-interface", reason_detail::kConf, "NCCL sends socket traffic over an interface off the fabric",
     "set NCCL_SOCKET_IFNAME to the fabric interface"},
    {"wrong-network", reason_detail::kConf, "NCCL uses another network transport than the profile expects",
     "check NCCL_IB_DISABLE, NCCL_NET and that the HCAs are up (ibstat); rerun with NCCL_DEBUG=INFO"},
    {"no-device", reason_detail::kConf, "NCCL found no device for its network transport",
     "check that rdma-core and the HCA driver are installed and NCCL_IB_HCA names existing HCAs"},
    {"ib-device-count", reason_detail::kConf, "NCCL's NET/IB uses fewer HCAs than the profile expects",
     "check NCCL_IB_HCA and ibstat; every rail HCA must be listed and Active"},
    {"ib-link-layer", reason_detail::kConf, "an HCA NCCL uses has another link layer than the profile expects",
     "check NCCL_IB_HCA and the port mode (ibstat Link layer)"},
    {"gdr-disabled", reason_detail::kConf, "NCCL logged GPUDirect RDMA disabled for an HCA",
     "load nvidia-peermem (modprobe nvidia-peermem) and check NCCL_NET_GDR_LEVEL"},
    {"no-gdrdma", reason_detail::kConf, "an inter-node NCCL channel runs without GPUDirect RDMA",
     "load nvidia-peermem (modprobe nvidia-peermem) and check NCCL_NET_GDR_LEVEL"},
    {"not-nvlink", reason_detail::kConf, "intra-node NCCL traffic does not use NVLink",
     "check NCCL_P2P_DISABLE / NCCL_P2P_LEVEL and nvidia-smi topo -m"},
    {"env-nccl-ib-disable", reason_detail::kConf, "NCCL_IB_DISABLE is set where the profile expects InfiniBand",
     "unset NCCL_IB_DISABLE in the job's environment (batch script, module, container)"},
    {"env-nccl-net", reason_detail::kConf, "NCCL_NET forces another network than the profile expects",
     "unset NCCL_NET in the job's environment"},
    {"env-nccl-p2p-disable", reason_detail::kConf, "NCCL_P2P_DISABLE is set where the profile expects NVLink",
     "unset NCCL_P2P_DISABLE in the job's environment"},
    {"env-nccl-p2p-level", reason_detail::kConf, "NCCL_P2P_LEVEL restricts P2P so NVLink is not used",
     "unset NCCL_P2P_LEVEL in the job's environment"},
    {"env-nccl-gdr-level", reason_detail::kConf, "NCCL_NET_GDR_LEVEL (or NCCL_IB_GDR_LEVEL) disables GPUDirect RDMA",
     "unset NCCL_NET_GDR_LEVEL and NCCL_IB_GDR_LEVEL in the job's environment"},
    {"env-nccl-shm-disable", reason_detail::kConf, "NCCL_SHM_DISABLE is set on nodes without NVLink",
     "unset NCCL_SHM_DISABLE in the job's environment"},
    {"nccl-warn", reason_detail::kConf, "NCCL logged a WARN line",
     "read the WARN line in the message and the lines around it"},
    {"nccl-timeout", reason_detail::kConf, "an NCCL collective did not finish",
     "compare every rank's last log line; check ibstat and dmesg for XID errors"},
    {"nccl-remote-error", reason_detail::kConf, "an NCCL peer rank exited or the network dropped",
     "find the first rank that died (OOM kill, GPU XID, preemption, segfault)"},
    {"nccl-system-error", reason_detail::kConf, "a system call inside NCCL failed",
     "read the WARN lines around it; check sockets, shared memory and ulimit -l"},
    {"nccl-internal-error", reason_detail::kConf, "NCCL reported an internal error",
     "unset NCCL_TOPO_FILE if it is from another machine; make every node run the same NCCL version"},
    {"nccl-cuda-error", reason_detail::kConf, "a CUDA call inside NCCL failed",
     "check the driver with nvidia-smi and dmesg | grep -i xid on the node"},
    {"nccl-invalid-usage", reason_detail::kConf, "NCCL reported invalid usage or an invalid argument",
     "check the job's NCCL version and its NCCL_* environment"},
    {"nccl-crash", reason_detail::kConf, "a process in the NCCL job crashed",
     "read the crashing rank's log and dmesg on its node; its peers only report remote errors"},
    {"nccl-error", reason_detail::kConf, "NCCL reported an error", "read the NCCL error line in the message"},
    {"nccl-init-slow", reason_detail::kConf,
     "NCCL communicator init (ncclCommInitRank) took longer than the profile's ceiling on at least one node",
     "check the bootstrap interface (NCCL_SOCKET_IFNAME on the fabric NIC, not a slow or wrong one), name "
     "resolution (DNS) on every node, and whether one node started late; the slowest node is named"},
    {"duplicate-address", reason_detail::kConf, "two nodes have the same address on the fabric interface",
     "give each node its own fabric address (ip -br addr on both)"},
    {"mtu-mismatch", reason_detail::kConf,
     "a node's fabric or IPoIB interface has another MTU than the others (or the profile)",
     "set the interface's MTU to the cluster's value (ip link set IFACE mtu N) and in the node's network config"},
    {"split-subnet", reason_detail::kConf, "the nodes' fabric interfaces are not in one subnet",
     "fix the fabric interface addresses or netmasks so every node shares one subnet"},
    {"shares-fabric-subnet", reason_detail::kConf, "another interface is in the fabric's subnet",
     "move the other interface out of the fabric subnet, or remove its address"},
    {"fabric-is-forbidden", reason_detail::kConf, "the profile's fabric interface is also in its forbidden list",
     "fix the profile: the fabric interface cannot be forbidden"},
    {"fabric-interface-missing", reason_detail::kConf, "the node has no interface with the profile's fabric name",
     "ip -br link on the node; load the NIC driver or fix the interface name (udev rules, nccl.socket_ifname)"},
    {"no-address", reason_detail::kConf, "the fabric interface has no IP address",
     "configure the fabric interface (ip -br addr) and bring it up"},
    {"key-differs", reason_detail::kConf, "the node's MUNGE key differs from the majority's",
     "copy /etc/munge/munge.key from a good node, then systemctl restart munge"},
    {"clock-skew", reason_detail::kConf, "MUNGE rejected a credential as expired or rewound: the clocks differ",
     "sync the clocks (chronyc tracking / timedatectl) on the nodes named"},
    {"credential-rejected", reason_detail::kConf, "MUNGE rejected a credential for another reason",
     "run munge -n | ssh NODE unmunge between the nodes named and read its error"},
    {"daemon-unreachable", reason_detail::kConf, "munged is not running or its socket cannot be reached",
     "systemctl status munge on the node; start it"},
    {"self-decode-failed", reason_detail::kConf, "munged could not decode its own credential",
     "check /etc/munge/munge.key and the munged log, then systemctl restart munge"},
    {"key-permissions", reason_detail::kConf, "the MUNGE key file's mode is too open",
     "chmod 0400 /etc/munge/munge.key"},
    {"key-owner", reason_detail::kConf, "the MUNGE key file is not owned by munge",
     "chown munge:munge /etc/munge/munge.key"},
    {"version-skew", reason_detail::kConf, "a component's version on the node differs from the expected one",
     "install the version the message names on the node (or rebuild its image)"},
    {"missing-on-node", reason_detail::kConf, "a component installed on the other nodes is missing on this one",
     "install the component on the node (or rebuild its image)"},
    {"firmware-skew", reason_detail::kConf,
     "a device's firmware (VBIOS, InfoROM image or HCA firmware) differs from the other devices of its model, or "
     "from the version the profile pins",
     "flash the device the message names to the expected version (nvfwupd for GPU baseboards, mlxfwmanager for "
     "HCAs), then reset it or reboot the node"},
    {"firmware-unreported", reason_detail::kTool,
     "the tool listed the device but gave no firmware version for it (N/A, or a trimmed output)",
     "run nvidia-smi -q -x or ibstat on the node by hand; a GPU whose VBIOS reads N/A may need a reset"},
    // Storage the node's checks write to, by the OS error it gave (harness/core/os_error.h).
    {"storage-read-only", reason_detail::kConf, "the node's view of a storage path is read-only (EROFS)",
     "remount the path read-write on the node (mount -o remount,rw), or fix the bind mount or export that made "
     "it read-only; a filesystem the kernel turned read-only after errors needs fsck"},
    {"storage-full", reason_detail::kConf, "the storage path has no space left (ENOSPC)",
     "free space on the filesystem the message names (df -h PATH), or move the jobs' checkpoints elsewhere"},
    {"storage-quota", reason_detail::kConf, "the user's quota on the storage path is exhausted (EDQUOT)",
     "raise the quota (quota -s; lfs quota on Lustre) or clean up old checkpoints"},
    {"storage-permission", reason_detail::kConf, "the node may not write the storage path (EACCES or EPERM)",
     "fix the directory's owner and mode, ACLs or root squashing on the node (ls -ld PATH as the job's user)"},
    {"storage-stale", reason_detail::kConf, "the node's network mount holds a stale file handle (ESTALE)",
     "remount the filesystem on the node (umount -f, then mount); the server's export changed under it"},
    {"storage-disconnected", reason_detail::kConf, "the node's mount is no longer connected (ENOTCONN)",
     "restart the FUSE or network filesystem client on the node and remount it"},
    {"storage-io-error", reason_detail::kHw, "the storage returned an I/O error (EIO)",
     "read the node's kernel log (dmesg) for the disk or filesystem errors; check the device or storage server"},
    // A worker or probe that died of an exhausted resource of its node
    // (probes/resource_limits/resource_exhaustion.h); a full disk is storage-full, a quota
    // storage-quota.
    {"shm-exhausted", reason_detail::kConf,
     "a worker died because the node's /dev/shm is too small or full (ENOSPC on a shared-memory file, a bus error "
     "in a DataLoader worker)",
     "give /dev/shm room on the node the message names (mount -o remount,size=16G /dev/shm; in a container "
     "--shm-size or --ipc=host); the message gives its measured size"},
    {"memory-exhausted", reason_detail::kConf,
     "a worker ran out of memory (the OOM killer's SIGKILL, CUDA out of memory, MemoryError, ENOMEM)",
     "read dmesg on the node for oom-kill lines and the job's memory limit (--mem, the cgroup's memory.max); give "
     "the job more memory or lower its batch size, DataLoader workers or ranks per node"},
    {"memlock-too-low", reason_detail::kConf,
     "the locked-memory limit (RLIMIT_MEMLOCK) is too low for RDMA: ibv_create_cq or ibv_reg_mr failed with "
     "\"Cannot allocate memory\"",
     "make memlock unlimited for jobs: /etc/security/limits.conf, LimitMEMLOCK=infinity in slurmd's unit, "
     "PropagateResourceLimitsExcept=MEMLOCK in slurm.conf"},
    {"open-files-exhausted", reason_detail::kConf, "a worker hit the open-files limit (EMFILE \"Too many open files\")",
     "raise the jobs' open-files limit (nofile in limits.conf, LimitNOFILE= in slurmd's unit, the submitting "
     "shell's ulimit -n, which srun propagates); ENFILE is fs.file-max"},
    {"target-not-shared", reason_detail::kConf, "the checkpoint directory is not shared between the nodes",
     "point --checkpoint-dir at storage every node mounts (df on each node)"},
    {"rename-crosses-filesystems", reason_detail::kConf, "the checkpoint temp directory is on another filesystem",
     "put --checkpoint-temp-dir on the checkpoint directory's filesystem (rename fails with EXDEV)"},
    {"rename-failed", reason_detail::kConf, "renaming a checkpoint into place failed",
     "read the errno in the message; check the checkpoint directory's permissions and mount"},
    {"torn-read", reason_detail::kConf, "a reader saw a partly written checkpoint",
     "publish checkpoints by write-then-rename, or use storage with close-to-open consistency"},
    {"never-complete", reason_detail::kConf, "a reader never saw a complete checkpoint",
     "check the storage's attribute caching (NFS actimeo) on the checkpoint mount"},
    {"stale-version", reason_detail::kConf, "a reader saw only old checkpoint versions",
     "check the storage's attribute caching (NFS actimeo, lookupcache) on the checkpoint mount"},
    {"missing-verification", reason_detail::kTool,
     "the Checkpoint probe verified the final path fewer times than it killed",
     "rerun the Checkpoint suite; the probe output is incomplete"},
    {"torn-after-kill", reason_detail::kConf, "a killed writer left a torn checkpoint at the final path",
     "write checkpoints to a temp file, fsync, then rename; check the filesystem honours fsync"},
    {"rename-not-visible", reason_detail::kConf, "after a kill the final path does not show the renamed version",
     "fsync the directory after rename; check the filesystem's rename durability"},
    {"version-went-back", reason_detail::kConf, "after a kill the final path went back to an older version",
     "fsync the file and its directory before rename; check the filesystem's write-back cache"},
    {"guarded-write-torn", reason_detail::kConf, "a checkpoint written by rank 0 alone is torn",
     "check the filesystem for lost writes (mount options, client cache) on the checkpoint mount"},
    {"not-visible", reason_detail::kConf, "a checkpoint written on one node is not visible on another",
     "check the storage's attribute caching (NFS actimeo, lookupcache) on the checkpoint mount"},
    {"control-not-detected", reason_detail::kTool,
     "the in-place writer's kills tore nothing, so the torture test proves little",
     "rerun with more checkpoint.negative_control_kills"},
    {"not-enough-space", reason_detail::kConf, "the checkpoint directory has less free space than a checkpoint needs",
     "free space on the checkpoint storage (df) or lower checkpoint.size_bytes in the profile"},
    {"run-directory-left", reason_detail::kConf, "the Checkpoint run directory could not be removed",
     "remove the directory the message names by hand and check its permissions"},
    // Torchrun: the launch path training jobs use.
    {"torchrun-missing", reason_detail::kConf, "the node's image has no torchrun (not on PATH, or not executable)",
     "install PyTorch in the image on every node, or name the launcher (torchrun.command, GPUCONFORM_TORCHRUN)"},
    {"torchrun-duplicated", reason_detail::kConf, "more than one torchrun runs on a node",
     "launch with srun --ntasks-per-node=1 torchrun --nproc_per_node=<GPUs per node>"},
    {"torchrun-rendezvous-timeout", reason_detail::kConf,
     "torchrun did not finish within torchrun.timeout_s: its rendezvous never completed, or its workers hung",
     "the message names the nodes that never joined; fix their launcher first, then MASTER_ADDR/MASTER_PORT "
     "(Torchrun.MasterPortOpen)"},
    {"torchrun-workers-failed", reason_detail::kConf, "torchrun's workers started and exited with a failure",
     "read the quoted worker error (rank, stage, exception); rerun the smoke test by hand on that node"},
    {"rank-env-wrong", reason_detail::kConf,
     "RANK, LOCAL_RANK, WORLD_SIZE or the node rank torchrun hands a worker is not what the job computes with",
     "launch one torchrun per node with --node_rank=$SLURM_NODEID (not SLURM_PROCID) and --nnodes=$SLURM_NNODES"},
    {"gpu-shared-by-workers", reason_detail::kConf, "two workers of a node hold the same GPU after set_device",
     "let every worker see all of the node's GPUs (no per-task CUDA_VISIBLE_DEVICES) and call "
     "torch.cuda.set_device(LOCAL_RANK)"},
    {"process-group-init-failed", reason_detail::kConf, "torch.distributed.init_process_group failed on a rank",
     "read the quoted error; check NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME and MASTER_ADDR/MASTER_PORT"},
    {"gdr-unavailable", reason_detail::kConf,
     "no peer-memory module (nvidia_peermem, nv_peer_mem) is loaded and DMA-BUF is not usable, so GPUDirect RDMA "
     "cannot work on the node",
     "modprobe nvidia-peermem and add it to /etc/modules-load.d/; or use DMA-BUF: driver R515+ with the open kernel "
     "modules, Linux 5.12+, NCCL 2.13+"},
    {"gdr-disabled-by-nccl", reason_detail::kConf,
     "NCCL's log disabled GPUDirect RDMA for an HCA, or for a GPU towards every HCA, on a node where it is available",
     "read NCCL's reason: 'no module' is the job's view of the module; a distance above NCCL_NET_GDR_LEVEL is the "
     "GPU-NIC placement"},
    {"ib-port-discards", reason_detail::kConf,
     "an InfiniBand port discarded packets (xmit discards, relay or constraint errors, VL15 drops) above its limit",
     "not the cable: check the subnet manager's routing, the fabric's congestion and peers that went away"},
    {"backend-below-sweep", reason_detail::kConf,
     "torch.distributed's NCCL allreduce is far below gpuconform's own NCCL sweep on the same nodes",
     "the job takes another path: compare the job's NCCL_* environment, CUDA_VISIBLE_DEVICES and the NCCL "
     "library torch loads with gpuconform's run; the message quotes NCCL's channel lines"},
    {"shards-overlap", reason_detail::kConf,
     "DistributedSampler shards overlap, miss items, or set_epoch does not reshuffle",
     "build the sampler with num_replicas=WORLD_SIZE and rank=RANK, and call set_epoch(epoch) each epoch"},
    {"checkpoint-not-rank-zero", reason_detail::kConf, "ranks other than global rank 0 wrote the checkpoint",
     "write only on rank 0 (if dist.get_rank() == 0), to a .tmp file renamed with os.replace, then barrier"},
    {"checkpoint-load-mismatch", reason_detail::kConf, "ranks loaded a different or no checkpoint after it was saved",
     "make every rank wait for rank 0's rename (a barrier) before loading; check the storage is shared"},
};

// The catalogue entry for code, or nullptr when no entry has that code.
constexpr const ReasonEntry* FindReason(std::string_view code) {
  for (const ReasonEntry& entry : kReasons) {
    if (entry.code == code) return &entry;
  }
  return nullptr;
}

// Codes earlier releases reported, and the catalogue code each became (synonyms merged,
// names made kebab-case or specific). Never reported any more; `gpuconform explain OLD`
// answers with the new entry, so a dashboard or runbook keyed on an old code finds its way.
struct RenamedReason {
  std::string_view old_code;
  std::string_view code;
};

inline constexpr RenamedReason kRenamedReasons[] = {
    {"unreadable", "unparseable"},
    {"unreadable-table", "unparseable"},
    {"unreadable-gres", "unparseable"},
    {"unreadable-queue", "unparseable"},
    {"no-measurement", "not-measured"},
    {"measurement-failed", "not-measured"},
    {"not-stated", "not-reported"},
    {"no-probe", "not-probed"},
    {"no-self-decode", "self-decode-not-run"},
    {"link-count", "nvlink-count"},
    {"ifname-forbidden", "nccl-socket-forbidden"},
    {"ifname-not-fabric", "nccl-socket-not-fabric"},
    {"skipped", "not-applicable"},
    {"absent", "file-absent"},
    {"failed", "probe-failed"},
    {"missing", "fabric-interface-missing"},
    {"down", "fabric-interface-down"},
    {"warn", "nccl-warn"},
    {"timeout", "nccl-timeout"},
    {"remote-error", "nccl-remote-error"},
    {"system-error", "nccl-system-error"},
    {"cuda-error", "nccl-cuda-error"},
    {"invalid-usage", "nccl-invalid-usage"},
    {"crash", "nccl-crash"},
    {"env-nccl_ib_disable", "env-nccl-ib-disable"},
    {"env-nccl_net", "env-nccl-net"},
    {"env-nccl_p2p_disable", "env-nccl-p2p-disable"},
    {"env-nccl_p2p_level", "env-nccl-p2p-level"},
    {"env-nccl_shm_disable", "env-nccl-shm-disable"},
    {"env-nccl_net_gdr_level", "env-nccl-gdr-level"},
    {"env-nccl_ib_gdr_level", "env-nccl-gdr-level"},
};

// The code an old code became, or empty when `old_code` was never renamed.
constexpr std::string_view RenamedTo(std::string_view old_code) {
  for (const RenamedReason& renamed : kRenamedReasons) {
    if (renamed.old_code == old_code) return renamed.code;
  }
  return {};
}

}  // namespace gpuconform
