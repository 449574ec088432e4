#include "probes/checkpoint_writer/filesystem_names.h"

#include <cstdio>
#include <map>

namespace gpuconform::checkpoint {

std::string FilesystemTypeName(unsigned long f_type) {
  // The magic numbers of linux/magic.h, plus the parallel filesystems GPU clusters use.
  static const std::map<unsigned long, const char*> kNames = {
      {0xEF53, "ext4"},           {0x58465342, "xfs"},        {0x9123683E, "btrfs"},
      {0x01021994, "tmpfs"},      {0x794C7630, "overlayfs"},  {0x6969, "nfs"},
      {0x0BD00BD0, "lustre"},     {0x47504653, "gpfs"},       {0x2FC12FC1, "zfs"},
      {0xFF534D42, "cifs"},       {0xFE534D42, "smb2"},       {0x65735546, "fuse"},
      {0x00C36400, "ceph"},       {0x858458F6, "ramfs"},      {0x9FA0, "proc"},
      {0x62656572, "sysfs"},      {0x5346414F, "afs"},        {0x73717368, "squashfs"},
  };
  const auto found = kNames.find(f_type);
  if (found != kNames.end()) return found->second;
  char hex[32];
  std::snprintf(hex, sizeof(hex), "0x%lx", f_type);
  return hex;
}

}  // namespace gpuconform::checkpoint
