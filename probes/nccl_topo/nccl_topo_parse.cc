#include "probes/nccl_topo/nccl_topo_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <pugixml.hpp>

#include "harness/util/text_util.h"

namespace gpuconform::nccl_topo {

namespace {

Error At(const std::string& origin, int line, const std::string& message) {
  return Error{origin + ":" + std::to_string(line) + ": " + message};
}

template <typename Number>
std::optional<Number> ToNumber(std::string_view text) {
  text = Trim(text);
  Number value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// NCCL writes gdr="1"/"0"; anything else means the file does not say.
std::optional<bool> ToFlag(std::string_view text) {
  const auto number = ToNumber<int>(text);
  if (!number) return std::nullopt;
  return *number != 0;
}

std::string_view Attr(const pugi::xml_node& node, const char* name) { return node.attribute(name).value(); }

// Maps byte offsets to 1-based line numbers for messages.
class LineIndex {
 public:
  explicit LineIndex(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(i);
    }
  }
  int LineOf(std::ptrdiff_t offset) const {
    if (offset < 0) return 1;
    const auto it = std::lower_bound(newlines_.begin(), newlines_.end(), static_cast<std::size_t>(offset));
    return static_cast<int>(it - newlines_.begin()) + 1;
  }

 private:
  std::vector<std::size_t> newlines_;
};

// Where an element sits: the enclosing CPU, PCI device and GPU (indices, -1 for none).
struct Scope {
  pugi::xml_node node;
  int cpu = -1;
  int pci = -1;
  int gpu = -1;
};

class TopologyBuilder {
 public:
  TopologyBuilder(Topology& topology, const LineIndex& lines) : topology_(topology), lines_(lines) {}

  // Iterative walk: a hostile file may nest thousands of levels deep, so no recursion.
  void Walk(const pugi::xml_node& root) {
    std::vector<Scope> stack;
    for (auto child = root.last_child(); child; child = child.previous_sibling()) stack.push_back({child});
    while (!stack.empty()) {
      const Scope scope = stack.back();
      stack.pop_back();
      if (scope.node.type() != pugi::node_element) continue;
      const Scope inner = Visit(scope);
      for (auto child = scope.node.last_child(); child; child = child.previous_sibling()) {
        stack.push_back({child, inner.cpu, inner.pci, inner.gpu});
      }
    }
    AddGpusKnownOnlyByClass();
  }

 private:
  Scope Visit(const Scope& scope) {
    const std::string name = scope.node.name();
    Scope inner = scope;
    if (name == "cpu") {
      inner.cpu = AddCpu(scope.node);
      inner.pci = -1;
    } else if (name == "pci") {
      inner.pci = AddPci(scope);
    } else if (name == "gpu") {
      inner.gpu = AddGpu(scope);
    } else if (name == "nvlink" && scope.gpu >= 0) {
      topology_.gpus[scope.gpu].nvlinks.push_back(
          {std::string(Trim(Attr(scope.node, "target"))), ToNumber<int>(Attr(scope.node, "count")),
           Lowercase(Trim(Attr(scope.node, "tclass")))});
    } else if (name == "net") {
      AddNet(scope);
    }
    return inner;
  }

  int AddCpu(const pugi::xml_node& node) {
    Cpu cpu;
    cpu.numa_id = ToNumber<int>(Attr(node, "numaid"));
    cpu.affinity = Attr(node, "affinity");
    cpu.arch = Attr(node, "arch");
    cpu.vendor = Attr(node, "vendor");
    cpu.family_id = Attr(node, "familyid");
    cpu.model_id = Attr(node, "modelid");
    topology_.cpus.push_back(std::move(cpu));
    return static_cast<int>(topology_.cpus.size()) - 1;
  }

  int AddPci(const Scope& scope) {
    PciDevice pci;
    pci.busid = Lowercase(Trim(Attr(scope.node, "busid")));
    pci.class_code = Lowercase(Trim(Attr(scope.node, "class")));
    pci.vendor = Lowercase(Trim(Attr(scope.node, "vendor")));
    pci.device = Lowercase(Trim(Attr(scope.node, "device")));
    pci.link_speed_text = Attr(scope.node, "link_speed");
    pci.link_speed_gt_per_s = ParseLinkSpeedGtPerS(pci.link_speed_text);
    pci.link_width_lanes = ToNumber<int>(Attr(scope.node, "link_width"));
    pci.cpu = scope.cpu;
    pci.parent = scope.pci;
    pci.line = lines_.LineOf(scope.node.offset_debug());
    if (!pci.class_code.empty()) topology_.any_pci_class = true;
    if (scope.pci >= 0) topology_.pcis[scope.pci].has_pci_children = true;
    topology_.pcis.push_back(std::move(pci));
    return static_cast<int>(topology_.pcis.size()) - 1;
  }

  int AddGpu(const Scope& scope) {
    int index = -1;
    if (scope.pci >= 0) {
      auto found = gpu_of_pci_.find(scope.pci);
      if (found != gpu_of_pci_.end()) index = found->second;
    }
    if (index < 0) {
      topology_.gpus.push_back({});
      index = static_cast<int>(topology_.gpus.size()) - 1;
      if (scope.pci >= 0) gpu_of_pci_[scope.pci] = index;
    }
    Gpu& gpu = topology_.gpus[index];
    gpu.pci = scope.pci;
    gpu.cpu = scope.cpu;
    gpu.declared = true;
    gpu.dev = ToNumber<int>(Attr(scope.node, "dev"));
    gpu.sm = ToNumber<int>(Attr(scope.node, "sm"));
    gpu.rank = ToNumber<int>(Attr(scope.node, "rank"));
    gpu.gdr = ToFlag(Attr(scope.node, "gdr"));
    return index;
  }

  void AddNet(const Scope& scope) {
    Net net;
    net.name = Trim(Attr(scope.node, "name"));
    net.dev = ToNumber<int>(Attr(scope.node, "dev"));
    net.port = ToNumber<int>(Attr(scope.node, "port"));
    net.maxconn = ToNumber<int>(Attr(scope.node, "maxconn"));
    net.speed_mbit_per_s = ToNumber<long long>(Attr(scope.node, "speed"));
    net.latency = ToNumber<double>(Attr(scope.node, "latency"));
    net.guid = Trim(Attr(scope.node, "guid"));
    net.gdr = ToFlag(Attr(scope.node, "gdr"));
    net.coll = ToFlag(Attr(scope.node, "coll"));
    net.pci = scope.pci;
    net.cpu = scope.cpu;
    topology_.nets.push_back(std::move(net));
  }

  // Static NCCL_TOPO_FILEs often list GPUs as PCI devices only; they are GPUs all the same.
  void AddGpusKnownOnlyByClass() {
    for (int i = 0; i < static_cast<int>(topology_.pcis.size()); ++i) {
      if (!IsGpuClass(topology_.pcis[i].class_code) || gpu_of_pci_.count(i) != 0) continue;
      Gpu gpu;
      gpu.pci = i;
      gpu.cpu = topology_.pcis[i].cpu;
      topology_.gpus.push_back(gpu);
    }
    std::stable_sort(topology_.gpus.begin(), topology_.gpus.end(),
                     [](const Gpu& a, const Gpu& b) { return a.pci < b.pci; });
  }

  Topology& topology_;
  const LineIndex& lines_;
  std::map<int, int> gpu_of_pci_;
};

bool ClassStartsWith(std::string_view class_code, std::string_view prefix) {
  class_code = Trim(class_code);
  if (StartsWith(class_code, "0x") || StartsWith(class_code, "0X")) class_code.remove_prefix(2);
  if (class_code.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(class_code[i])) != prefix[i]) return false;
  }
  return true;
}

}  // namespace

bool IsGpuClass(std::string_view class_code) { return ClassStartsWith(class_code, "03"); }
bool IsNicClass(std::string_view class_code) { return ClassStartsWith(class_code, "02"); }
bool IsInfinibandClass(std::string_view class_code) { return ClassStartsWith(class_code, "0207"); }
bool IsEthernetClass(std::string_view class_code) { return ClassStartsWith(class_code, "0200"); }
bool IsNvSwitchClass(std::string_view class_code) { return ClassStartsWith(class_code, "0680"); }

std::optional<double> ParseLinkSpeedGtPerS(std::string_view text) {
  text = Trim(text);
  std::size_t digits = 0;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.')) {
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  const auto value = ToNumber<double>(text.substr(0, digits));
  if (!value || !StartsWith(Trim(text.substr(digits)), "GT/s")) return std::nullopt;
  return value;
}

Result<Topology> ParseTopologyXml(const std::string& xml, const std::string& origin) {
  if (xml.size() > kMaxTopologyBytes) {
    return At(origin, 1, std::to_string(xml.size()) + " bytes is far larger than any NCCL topology (limit " +
                             std::to_string(kMaxTopologyBytes) + "); not an NCCL_TOPO_DUMP_FILE output");
  }
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  const LineIndex lines(xml);
  if (!parsed) {
    return At(origin, lines.LineOf(parsed.offset),
              std::string("invalid XML (") + parsed.description() + "); expected NCCL topology XML with root <system>");
  }
  const pugi::xml_node root = doc.document_element();
  const int root_line = lines.LineOf(root.offset_debug());
  const std::string root_name = root.name();
  if (root_name == "graphs" || root_name == "graph") {
    return At(origin, root_line,
              "this is an NCCL graph file (root <" + root_name +
                  ">, as NCCL_GRAPH_FILE / NCCL_GRAPH_DUMP_FILE hold), not a topology file (root <system>, as "
                  "NCCL_TOPO_DUMP_FILE writes); give the topology dump instead");
  }
  if (root_name != "system") {
    return At(origin, root_line,
              "not an NCCL topology file: root element <" + root_name + ">, expected <system version=...>");
  }
  Topology topology;
  topology.version = Attr(root, "version");
  topology.origin = origin;
  TopologyBuilder(topology, lines).Walk(root);
  return topology;
}

}  // namespace gpuconform::nccl_topo
