// OS errors classified once (harness/core/os_error.h).
#include <gtest/gtest.h>

#include <cerrno>

#include "harness/core/os_error.h"

namespace gpuconform {
namespace {

TEST(OsError, TheWordingCarriesTheNumberAndReadsBack) {
  const std::string text = OsErrorText("create /ckpt/x", EROFS);
  EXPECT_EQ(text, "create /ckpt/x: Read-only file system (errno 30)");
  EXPECT_EQ(ErrnoIn(text), EROFS);
  EXPECT_EQ(ErrnoIn("no number here"), std::nullopt);
  EXPECT_EQ(ErrnoIn("(errno )"), std::nullopt);
  EXPECT_EQ(ErrnoIn("(errno 12"), std::nullopt);
  EXPECT_EQ(ErrnoIn("(errno 2) then (errno 28)"), 28) << "the last one is the error that ended it";
}

TEST(OsError, StorageErrorsAreTheNodesFaultsAndOthersAreNot) {
  EXPECT_EQ(StorageFaultCode(EROFS), "storage-read-only");
  EXPECT_EQ(StorageFaultCode(ENOSPC), "storage-full");
  EXPECT_EQ(StorageFaultCode(EDQUOT), "storage-quota");
  EXPECT_EQ(StorageFaultCode(EACCES), "storage-permission");
  EXPECT_EQ(StorageFaultCode(EPERM), "storage-permission");
  EXPECT_EQ(StorageFaultCode(ESTALE), "storage-stale");
  EXPECT_EQ(StorageFaultCode(ENOTCONN), "storage-disconnected");
  EXPECT_EQ(StorageFaultCode(EIO), "storage-io-error");
  EXPECT_EQ(StorageFaultCode(EIO).entry().fault_class, FaultClass::kHardware);
  EXPECT_EQ(StorageFaultCode(EROFS).entry().fault_class, FaultClass::kConfiguration);
  EXPECT_FALSE(IsStorageFault(EINTR));
  EXPECT_FALSE(IsStorageFault(ENOENT));
  EXPECT_TRUE(IsStorageFault(EDQUOT));
  EXPECT_TRUE(HasStorageFault("write /x: No space left on device (errno 28)"));
  EXPECT_FALSE(HasStorageFault("write /x: Interrupted system call (errno 4)"));
  EXPECT_FALSE(HasStorageFault("write /x: no number"));
}

}  // namespace
}  // namespace gpuconform
