// Dcgm suite checks: NVIDIA DCGM's own diagnostic (`dcgmi diag -r <level> -j`) judged GPU by GPU,
// so a node is held to the field's hardware test rather than to gpuconform's reading of
// counters. A run whose environment failed says nothing about the GPUs and is never blamed on
// one: CUDA that cannot start ('system not yet initialized') is Fabric Manager not ready, a
// configuration fault of the node; an unreachable host engine or DCGM failing inside itself is
// the tooling's, and the verdict an error (inconclusive). Pure: the node's parsed diagnostic
// (dcgm::ReadDcgmDiag) + profile in, one judgement per node out.
#pragma once

#include <optional>
#include <string>

#include "harness/core/profile.h"
#include "harness/core/verdict.h"
#include "probes/dcgm/dcgm_diag_parse.h"

namespace gpuconform::dcgm_suite {

inline constexpr char kSuite[] = "Dcgm";
GPUCONFORM_CHECK_NAME(DiagnosticsPass);

// Why DiagnosticsPass does not apply: the profile expects no GPUs, or has no dcgm section to
// choose a level. nullopt when it applies.
std::optional<std::string> DiagnosticsSkipReason(const Profile& profile);

// Every test's state on every GPU: a GPU that fails a test is a finding (dcgm-diag-failed)
// quoting DCGM's code name and message; a test that fails naming no GPU is one about the
// node. Environment failures decide first: CUDA not initialised fails the node as
// dcgm-fabric-not-ready (no GPU blamed), an unreachable host engine is an error
// (dcgm-host-engine); DCGM's internal error leaves its test unjudged and, where no other test
// failed a GPU, makes the verdict an error (dcgm-internal-error). Warn, skip and not-run states
// are kept as measurements "<node>/gpu<i>.dcgm.<test>", as DCGM names them; a skip is no failure.
CheckResult CheckDiagnosticsPass(const std::string& node, const dcgm::DcgmDiagReport& report);

// The judgement where the diagnostic could not be read (`problem`, the reader's error or the
// probe's detail): dcgmi not installed under a GPU profile is tool-missing naming the node and
// where DCGM comes from; a host engine that did not answer is dcgm-host-engine; anything else
// is unavailable, quoting it.
CheckResult DiagnosticsUnread(const std::string& node, bool tool_missing, const std::string& problem);

}  // namespace gpuconform::dcgm_suite
