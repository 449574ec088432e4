#include "probes/munge/munge_facts.h"

#include "probes/munge/munge_probes.h"

namespace gpuconform::munge {

namespace {

// A probe output turned into facts, or into the reason there are none (naming node and file);
// parsed once per node.
template <typename T>
const Result<T>& Read(const ClusterRaw& raw, const std::string& node, const ProbeSpec& spec,
                      Result<T> (*parse)(const std::string&, const std::string&)) {
  return raw.facts.Get<Result<T>>(spec.id, node, [&]() -> Result<T> {
    const RawOutput out = raw.NodeOutput(node, spec.id);
    if (out.status == ProbeStatus::kAbsent) return Error{node + ": no " + spec.file + " (" + out.detail + ")"};
    if (!out.ok()) return Error{out.detail.empty() ? node + ": " + spec.file + " could not be obtained" : out.detail};
    return parse(out.text, out.origin.empty() ? node + "/" + spec.file : out.origin);
  });
}

}  // namespace

const Result<DecodeReport>& ReadDecodeReport(const ClusterRaw& raw, const std::string& node) {
  return Read(raw, node, CrossDecodeProbe(), ParseDecodeReport);
}

const Result<KeyDigest>& ReadKeyDigest(const ClusterRaw& raw, const std::string& node) {
  return Read(raw, node, KeyDigestProbe(), ParseKeyDigest);
}

const Result<KeyStat>& ReadKeyStat(const ClusterRaw& raw, const std::string& node) {
  return Read(raw, node, KeyStatProbe(), ParseKeyStat);
}

const Result<long long>& ReadClockReading(const ClusterRaw& raw, const std::string& node) {
  return Read(raw, node, ClockProbe(), ParseClockReading);
}

}  // namespace gpuconform::munge
