// Termination: how a run that is told to stop still ends with a report. A job past its Slurm
// time limit, `scancel`, `srun` given SIGTERM by a CI runner's timeout, or Ctrl-C all send a
// signal to every rank; Slurm sends SIGKILL KillWait seconds later (30 s by default). The
// process-wide notice below records the first SIGTERM, SIGINT or SIGHUP (or the run's own
// deadline) and wakes one handler thread, which ends the run in an orderly way: the child
// process groups in flight are stopped, rank 0 writes its reports from what was measured
// so far, and the process exits 128 + the signal number.
// Contract: the signal handler only records the signal and writes one byte to a pipe (both
// async-signal-safe); everything else runs on the handler thread, which must end the process.
// A second signal while the handler runs is recorded and ignored: the handler has its own
// deadline. Child groups registered here are sent SIGTERM, then SIGKILL after a grace.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace gpuconform {

struct TerminationNotice {
  int signal = 0;       // SIGTERM, SIGINT, SIGHUP; 0 for the run's own deadline
  std::string cause;    // "SIGTERM", "the run's deadline (--deadline 10m)"
  std::string at_utc;   // when it arrived, "2026-12-07T09:00:05Z"

  // "the run was terminated by SIGTERM at 2026-12-07T09:00:05Z"
  std::string Describe() const;
  // 128 + the signal (143 for SIGTERM, 130 for SIGINT, 129 for SIGHUP), as a shell reports a
  // process ended by it; 124 for the run's own deadline, as `timeout` reports one.
  int ExitStatus() const;
};

// Every message about a check that termination kept from being judged contains this, so the
// judging step can tell those errors from the run's own (TerminatedCases, app/).
inline constexpr char kTerminatedMarker[] = "the run was terminated by ";

// "SIGTERM", "SIGINT", "SIGHUP", else "signal N".
std::string SignalName(int signal);

// Installs the handlers of SIGTERM, SIGINT and SIGHUP. Idempotent.
void InstallTerminationSignals();
// Records a termination that is not a signal (the run's deadline): the first notice stands.
void RequestTermination(const std::string& cause);
// The first notice, once one arrived.
std::optional<TerminationNotice> Termination();
bool TerminationRequested();

// Runs `handler` on the termination thread once a notice arrives; the handler must end the
// process. A later call replaces the handler (the run's phases each know best how to end);
// a notice that arrived before the first call is handled at once.
void OnTermination(std::function<void(const TerminationNotice&)> handler);

// The process groups of the children in flight (process_runner.h registers each command's),
// so that termination stops them and leaves nothing on the node. A child that shares this
// process's group is registered by its pid and signalled alone.
void RegisterChildGroup(pid_t group);
void UnregisterChildGroup(pid_t group);
// SIGTERM to every registered group, at once: srun passes it on to its step's tasks.
void TerminateChildGroups();
// SIGTERM to every registered group, then SIGKILL to those still there after `grace`.
void StopChildGroups(std::chrono::milliseconds grace);

// Directories a measurement made for itself (a run directory on the shared storage, a worker's
// scratch directory), registered while they exist: termination removes those still there,
// after it stopped the children that wrote in them, so a terminated run leaves nothing behind.
void RegisterRunDirectory(const std::string& path);
// A probe that writes into a run directory calls this between its steps: once termination is
// requested it parks the calling thread for good (the handler ends the process), so nothing
// writes into a directory the handler removes. The handler waits for it (ProbesParked) before
// it removes them.
void ParkIfEnding();
// Whether a thread parked within `wait`; false where none did (it was elsewhere: in a fence,
// or in no probe that writes).
bool ProbesParked(std::chrono::milliseconds wait);
void UnregisterRunDirectory(const std::string& path);
void RemoveRunDirectories();

// The run's own deadline: the smaller of --deadline and the job's end time (SLURM_JOB_END_TIME),
// as seconds from now; `reserve` before it, termination is requested with `cause`, so the
// report is written before the time limit's SIGTERM. Returns at once; a deadline already
// past the reserve requests termination immediately.
void ArmRunDeadline(std::chrono::seconds left, std::chrono::seconds reserve, const std::string& cause);
// When the armed deadline requests termination; nullopt where none is armed. A probe that may
// take longer than what is left is not started (gather.h), and says so with kNoTimeMarker.
std::optional<std::chrono::steady_clock::time_point> TerminationTime();
inline constexpr char kNoTimeMarker[] = "was not started for lack of time: ";

}  // namespace gpuconform
