// FactCache: parsed facts of one run, so each raw input is parsed once however many suites
// read it (NvSwitch and Pcie both read a node's GPU inventory; the Software suite reads the
// driver and CUDA versions from one nvidia-smi -q -x). Keyed by the kind of fact and the node
// ("" for cluster facts). Contract: the value is computed on first use from the run's raw
// outputs, which do not change once evaluation starts; a copied cache starts empty, so a
// ClusterRaw that is copied and then merged never serves facts of its old contents.
// Single-threaded, as evaluation is.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace gpuconform {

class FactCache {
 public:
  FactCache() = default;
  FactCache(const FactCache&) {}
  FactCache& operator=(const FactCache&) {
    entries_.clear();
    return *this;
  }

  template <typename T, typename Compute>
  const T& Get(const std::string& kind, const std::string& node, Compute compute) {
    std::shared_ptr<void>& slot = entries_[{node, kind}];
    if (!slot) slot = std::make_shared<T>(compute());
    return *static_cast<const T*>(slot.get());
  }

  void Clear() { entries_.clear(); }
  // Drops one node's facts once every check that reads them has run, so evaluation holds
  // one node's parsed facts at a time rather than the fleet's.
  void ClearNode(const std::string& node) {
    entries_.erase(entries_.lower_bound({node, ""}), entries_.lower_bound({node + '\0', ""}));
  }

 private:
  std::map<std::pair<std::string, std::string>, std::shared_ptr<void>> entries_;  // (node, kind) -> fact
};

}  // namespace gpuconform
