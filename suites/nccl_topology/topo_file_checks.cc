#include "suites/nccl_topology/topo_file_checks.h"

#include <algorithm>
#include <cctype>

#include "harness/util/text_util.h"

namespace gpuconform::nccl_topology {

namespace {

constexpr char kFix[] =
    "the file was written for another machine type: unset NCCL_TOPO_FILE to let NCCL detect this node, or regenerate "
    "the file on this machine type (run an NCCL job with NCCL_TOPO_DUMP_FILE=<file> and point NCCL_TOPO_FILE at it)";

// A report of a file from another machine lists every device; past this many, a count.
constexpr std::size_t kMaxListedFindings = 16;

std::string HexDigits(std::string_view code) {
  code = Trim(code);
  if (StartsWith(code, "0x") || StartsWith(code, "0X")) code.remove_prefix(2);
  std::string out(code);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A file may state only base class and subclass ("0x0302"); compare what both state.
bool ClassesAgree(std::string_view file_class, std::string_view live_class) {
  const std::string a = HexDigits(file_class);
  const std::string b = HexDigits(live_class);
  const std::size_t n = std::min(a.size(), b.size());
  if (n < 2) return true;  // one side does not say
  return a.compare(0, n, b, 0, n) == 0;
}

// Vendor and device as the file states them; 0xffff and 0x0000 are placeholders that
// static files write for devices they invent.
bool StatesId(std::string_view id) {
  const std::string digits = HexDigits(id);
  return !digits.empty() && digits != "ffff" && digits != "0000";
}

std::string ClassName(std::string_view class_code) {
  if (IsGpuClass(class_code)) return "GPU";
  if (IsInfinibandClass(class_code)) return "InfiniBand NIC";
  if (IsEthernetClass(class_code)) return "Ethernet NIC";
  if (IsNicClass(class_code)) return "network controller";
  if (IsNvSwitchClass(class_code)) return "NVSwitch or bridge";
  if (StartsWith(HexDigits(class_code), "0604")) return "PCI bridge or switch";
  if (StartsWith(HexDigits(class_code), "01")) return "storage controller";
  return "other device";
}

std::string ClassText(std::string_view class_code) {
  if (class_code.empty()) return "class not stated";
  return std::string(class_code) + " (" + ClassName(class_code) + ")";
}

std::string IdText(const std::string& vendor, const std::string& device) {
  return (vendor.empty() ? "?" : vendor) + ":" + (device.empty() ? "?" : device);
}

}  // namespace

CheckResult CheckTopoFileMatchesNode(const std::string& node, const Topology& file, const LivePciDevices& live) {
  const std::string& file_origin = file.origin;
  // A device of the wrong class or model says more than one that is absent, so those lead.
  std::vector<Finding> mismatched;
  std::vector<Finding> missing;
  int compared = 0;
  int virtual_skipped = 0;
  int matched = 0;
  std::size_t unlisted = 0;
  auto keep = [&](std::vector<Finding>& list, Finding finding) {
    if (list.size() < kMaxListedFindings) {
      list.push_back(std::move(finding));
    } else {
      ++unlisted;
    }
  };
  auto add = [&](Finding finding) {
    std::vector<Finding>& list = finding.code == "topo-file-device-missing" ? missing : mismatched;
    keep(list, std::move(finding));
  };
  for (const auto& pci : file.pcis) {
    if (pci.busid.empty()) continue;
    const std::string where = node + ": NCCL_TOPO_FILE " + file_origin + " line " + std::to_string(pci.line) + ": ";
    const auto busid = CanonicalBusId(pci.busid);
    if (!busid) {
      add({"topo-file-bad-busid", node + "/pci/" + pci.busid,
           where + "<pci busid=" + QuoteForMessage(pci.busid) + "> is not a PCI bus id (expected e.g. 0000:18:00.0); " +
               kFix});
      continue;
    }
    if (IsVirtualBusId(*busid)) {
      ++virtual_skipped;
      continue;
    }
    ++compared;
    const std::string entity = node + "/pci/" + *busid;
    const auto found = live.find(*busid);
    if (found == live.end()) {
      add({"topo-file-device-missing", entity,
           where + "PCI device " + *busid + " (" + ClassText(pci.class_code) +
               " in the file) does not exist on this node; " + kFix});
      continue;
    }
    const LivePciDevice& device = found->second;
    if (!ClassesAgree(pci.class_code, device.class_code)) {
      add({"topo-file-class-mismatch", entity,
           where + *busid + " is " + ClassText(pci.class_code) + " in the file but " + ClassText(device.class_code) +
               " on this node; " + kFix});
      continue;
    }
    const bool vendor_differs = StatesId(pci.vendor) && !device.vendor.empty() && HexDigits(pci.vendor) != HexDigits(device.vendor);
    const bool device_differs = StatesId(pci.device) && !device.device.empty() && HexDigits(pci.device) != HexDigits(device.device);
    if (vendor_differs || device_differs) {
      add({"topo-file-id-mismatch", entity,
           where + *busid + " (" + ClassText(device.class_code) + ") is vendor:device " + IdText(pci.vendor, pci.device) +
               " in the file but " + IdText(device.vendor, device.device) +
               " on this node (another model of the device); " + kFix});
      continue;
    }
    ++matched;
  }
  std::vector<Finding> findings = std::move(mismatched);
  for (auto& finding : missing) {
    if (findings.size() < kMaxListedFindings) {
      findings.push_back(std::move(finding));
    } else {
      ++unlisted;
    }
  }
  if (unlisted > 0) {
    findings.push_back({"topo-file-more", node,
                        node + ": and " + std::to_string(unlisted) + " more PCI device(s) of the file that do not match "
                               "this node"});
  }
  std::vector<Measurement> measurements = {
      {node + ".topo_file_devices_compared", std::to_string(compared), "", "", ""},
      {node + ".topo_file_devices_matching", std::to_string(matched), "", "== " + std::to_string(compared), ""},
      {node + ".topo_file_virtual_switches_skipped", std::to_string(virtual_skipped), "", "", ""},
  };
  CheckResult result;
  if (compared == 0 && findings.empty()) {
    result = Errored("not-reported",
                     node + ": NCCL_TOPO_FILE " + file_origin +
                         " names no real PCI bus id (only virtual switches or none), so there is nothing to compare "
                         "with the node");
  } else {
    result = FromFindings(std::move(findings));
  }
  result.measurements = std::move(measurements);
  return result;
}

}  // namespace gpuconform::nccl_topology
