#include "harness/world/pmix_channel.h"

#include <pmix.h>

#include <algorithm>
#include <cstdint>

namespace gpuconform {

namespace {

std::string Describe(pmix_status_t status) { return PMIx_Error_string(status); }

std::string ChunkKey(const std::string& prefix, std::size_t index) { return prefix + "." + std::to_string(index); }

}  // namespace

Result<std::shared_ptr<PmixChannel>> PmixChannel::Connect() {
  pmix_proc_t me;
  const pmix_status_t status = PMIx_Init(&me, nullptr, 0);
  if (status != PMIX_SUCCESS) {
    return Error{"PMIx_Init failed (" + Describe(status) +
                 "): the launcher named a PMIx server in the environment that does not answer"};
  }
  pmix_proc_t job;
  PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
  pmix_value_t* value = nullptr;
  const pmix_status_t got = PMIx_Get(&job, PMIX_JOB_SIZE, nullptr, 0, &value);
  if (got != PMIX_SUCCESS || value == nullptr || value->type != PMIX_UINT32) {
    if (value != nullptr) PMIX_VALUE_RELEASE(value);
    PMIx_Finalize(nullptr, 0);
    return Error{"PMIx server does not say the job size (" + Describe(got) + ")"};
  }
  const int size = static_cast<int>(value->data.uint32);
  PMIX_VALUE_RELEASE(value);
  return std::shared_ptr<PmixChannel>(new PmixChannel(me.nspace, static_cast<int>(me.rank), size));
}

PmixChannel::~PmixChannel() { PMIx_Finalize(nullptr, 0); }

std::string PmixChannel::NextPrefix() { return "gpuconform." + std::to_string(sequence_++); }

Result<bool> PmixChannel::Publish(const std::string& prefix, const std::string& mine) {
  const std::size_t chunks = (mine.size() + kChunkBytes - 1) / kChunkBytes;
  pmix_value_t count;
  count.type = PMIX_UINT32;
  count.data.uint32 = static_cast<std::uint32_t>(chunks);
  pmix_status_t status = PMIx_Put(PMIX_GLOBAL, (prefix + ".n").c_str(), &count);
  for (std::size_t i = 0; i < chunks && status == PMIX_SUCCESS; ++i) {
    pmix_value_t chunk;
    chunk.type = PMIX_BYTE_OBJECT;
    // PMIx_Put copies the bytes before it returns.
    chunk.data.bo.bytes = const_cast<char*>(mine.data() + i * kChunkBytes);
    chunk.data.bo.size = std::min(kChunkBytes, mine.size() - i * kChunkBytes);
    status = PMIx_Put(PMIX_GLOBAL, ChunkKey(prefix, i).c_str(), &chunk);
  }
  if (status == PMIX_SUCCESS) status = PMIx_Commit();
  if (status != PMIX_SUCCESS) return Error{"PMIx_Put of " + prefix + " failed: " + Describe(status)};
  return true;
}

Result<bool> PmixChannel::Fence(const std::string& what) {
  // Every fence collects. On Slurm 22.05's PMIx plugin a fence without collected data did
  // not hold the ranks together (the checkpoint stages saw rank 0's writes many rounds
  // late on the local cluster), and a later fetch of uncollected data (direct modex) never
  // returned when one node's fabric interface was down.
  pmix_info_t info;
  bool collect = true;
  PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
  const pmix_status_t status = PMIx_Fence(nullptr, 0, &info, 1);
  PMIX_INFO_DESTRUCT(&info);
  if (status != PMIX_SUCCESS) {
    return Error{"PMIx fence (" + what + ") of " + std::to_string(size_) + " ranks failed: " + Describe(status)};
  }
  return true;
}

Result<std::string> PmixChannel::Fetch(int rank, const std::string& prefix) {
  pmix_proc_t from;
  PMIX_LOAD_PROCID(&from, nspace_.c_str(), static_cast<pmix_rank_t>(rank));
  auto get = [&](const std::string& key, pmix_value_t** value) -> Result<bool> {
    const pmix_status_t status = PMIx_Get(&from, key.c_str(), nullptr, 0, value);
    if (status != PMIX_SUCCESS || *value == nullptr) {
      return Error{"PMIx_Get of " + key + " from rank " + std::to_string(rank) + " failed: " + Describe(status)};
    }
    return true;
  };
  pmix_value_t* value = nullptr;
  if (auto got = get(prefix + ".n", &value); !got) return Error{got.error()};
  const std::uint32_t chunks = value->type == PMIX_UINT32 ? value->data.uint32 : 0;
  PMIX_VALUE_RELEASE(value);
  std::string text;
  for (std::uint32_t i = 0; i < chunks; ++i) {
    value = nullptr;
    if (auto got = get(ChunkKey(prefix, i), &value); !got) return Error{got.error()};
    if (value->type == PMIX_BYTE_OBJECT && value->data.bo.bytes != nullptr) {
      text.append(value->data.bo.bytes, value->data.bo.size);
    }
    PMIX_VALUE_RELEASE(value);
  }
  return text;
}

Result<std::vector<std::string>> PmixChannel::AllGather(const std::string& mine) {
  const std::string prefix = NextPrefix();
  if (auto put = Publish(prefix, mine); !put) return Error{put.error()};
  if (auto fenced = Fence("exchange " + prefix); !fenced) return Error{fenced.error()};
  std::vector<std::string> parts;
  parts.reserve(static_cast<std::size_t>(size_));
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) {
      parts.push_back(mine);
      continue;
    }
    auto part = Fetch(r, prefix);
    if (!part) return Error{part.error()};
    parts.push_back(std::move(*part));
  }
  return parts;
}

Result<std::vector<std::string>> PmixChannel::GatherToRoot(const std::string& mine) {
  // The fence collects every rank's value on every node's PMIx server (see Fence), but only
  // rank 0 fetches them: a rank that fetched every part only to drop it would hold the whole
  // fleet's raw outputs for a moment (N parts on each of N ranks).
  if (rank_ == 0) return AllGather(mine);
  const std::string prefix = NextPrefix();
  if (auto put = Publish(prefix, mine); !put) return Error{put.error()};
  if (auto fenced = Fence("exchange " + prefix); !fenced) return Error{fenced.error()};
  return std::vector<std::string>{};
}

Result<std::string> PmixChannel::BroadcastFromRoot(const std::string& value) {
  const std::string prefix = NextPrefix();
  if (rank_ == 0) {
    if (auto put = Publish(prefix, value); !put) return Error{put.error()};
  } else if (const pmix_status_t status = PMIx_Commit(); status != PMIX_SUCCESS) {
    return Error{"PMIx_Commit before " + prefix + " failed: " + Describe(status)};
  }
  if (auto fenced = Fence("broadcast " + prefix); !fenced) return Error{fenced.error()};
  if (rank_ == 0) return value;
  return Fetch(0, prefix);
}

Result<bool> PmixChannel::Barrier() { return Fence("barrier"); }

Result<bool> PmixChannel::PublishOwn(const std::string& key, const std::string& value) {
  pmix_value_t text;
  text.type = PMIX_STRING;
  text.data.string = const_cast<char*>(value.c_str());  // PMIx_Put copies it
  pmix_status_t status = PMIx_Put(PMIX_GLOBAL, key.c_str(), &text);
  if (status == PMIX_SUCCESS) status = PMIx_Commit();
  if (status != PMIX_SUCCESS) return Error{"PMIx_Put of " + key + " failed: " + Describe(status)};
  return true;
}

Result<std::string> PmixChannel::FetchFromRoot(const std::string& key, int timeout_s) {
  pmix_proc_t root;
  PMIX_LOAD_PROCID(&root, nspace_.c_str(), 0);
  pmix_info_t info;
  PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout_s, PMIX_INT);
  pmix_value_t* value = nullptr;
  const pmix_status_t status = PMIx_Get(&root, key.c_str(), &info, 1, &value);
  PMIX_INFO_DESTRUCT(&info);
  if (status != PMIX_SUCCESS || value == nullptr) {
    return Error{"PMIx_Get of " + key + " from rank 0 failed: " + Describe(status)};
  }
  std::string text = value->type == PMIX_STRING && value->data.string != nullptr ? value->data.string : "";
  PMIX_VALUE_RELEASE(value);
  return text;
}

void PmixChannel::Abort(int status, const std::string& message) { PMIx_Abort(status, message.c_str(), nullptr, 0); }

}  // namespace gpuconform
