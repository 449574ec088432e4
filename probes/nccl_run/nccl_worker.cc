#include "probes/nccl_run/nccl_worker.h"

#include <sys/prctl.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "harness/core/run_options.h"
#include "harness/util/child_verbs.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/allreduce_sweep/sweep.h"
#include "probes/nccl_run/nccl_collective_layout.h"
#include "probes/nccl_run/nccl_library.h"
#include "probes/nccl_run/nccl_worker_protocol.h"

namespace gpuconform::nccl_run {

using namespace gpuconform::allreduce_sweep;

namespace {

void Say(const std::string& line) { std::cout << line << std::endl; }

int SayError(const std::string& stage, const std::string& reason) {
  Say(FormatRecord("error", {{"stage", stage}, {"reason", reason}}));
  return 1;
}

struct Gpu {
  int device = 0;
  int rank = 0;
  NcclComm comm = nullptr;
  CudaStream stream = nullptr;
};

// Every GPU of the node joins the communicator inside one group, as NCCL requires when one
// thread drives several devices.
std::string InitCommunicators(const NcclLibraries& lib, const RecordLine& init, std::vector<Gpu>& gpus) {
  const auto id_bytes = FromHex(init.Get("unique_id"));
  const auto nranks = WholeInteger(init.Get("nranks"));
  const auto first_rank = WholeInteger(init.Get("first_rank"));
  if (!id_bytes || id_bytes->size() != sizeof(NcclUniqueId) || !nranks || !first_rank) {
    return "malformed init line from the parent";
  }
  // Each node dumps its own topology: NCCL writes NCCL_TOPO_DUMP_FILE on one rank only. The
  // rank is this node's first, which the worker learns only from the init line, long after
  // the parent started it with the rest of its NCCL environment (WorkerNcclEnvironment); NCCL
  // reads it at ncclCommInitRank, below.
  ExportToLibraryEnvironment("NCCL_TOPO_DUMP_FILE_RANK", std::to_string(*first_rank));
  NcclUniqueId id;
  std::copy(id_bytes->begin(), id_bytes->end(), id.internal);
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    gpus[g].rank = static_cast<int>(*first_rank) + static_cast<int>(g);
    if (const CudaError code = lib.cuda.set_device(gpus[g].device); code != kCudaSuccess) {
      return lib.cuda.ErrorText("cudaSetDevice", code);
    }
    if (const CudaError code = lib.cuda.stream_create(&gpus[g].stream, kCudaStreamNonBlocking); code != kCudaSuccess) {
      return lib.cuda.ErrorText("cudaStreamCreateWithFlags", code);
    }
  }
  NcclResult code = lib.nccl.group_start();
  if (code != kNcclSuccess) return lib.nccl.ErrorText("ncclGroupStart", code);
  for (auto& gpu : gpus) {
    lib.cuda.set_device(gpu.device);
    code = lib.nccl.comm_init_rank(&gpu.comm, static_cast<int>(*nranks), id, gpu.rank);
    if (code != kNcclSuccess) {
      lib.nccl.group_end();
      return lib.nccl.ErrorText("ncclCommInitRank", code) + " (GPU " + std::to_string(gpu.device) + ")";
    }
  }
  code = lib.nccl.group_end();
  if (code != kNcclSuccess) return lib.nccl.ErrorText("ncclCommInitRank (group end)", code);
  return "";
}

struct Buffers {
  void* send = nullptr;
  void* receive = nullptr;
};

void FreeBuffers(const NcclLibraries& lib, const std::vector<Gpu>& gpus, std::vector<Buffers>& buffers) {
  for (std::size_t g = 0; g < buffers.size(); ++g) {
    lib.cuda.set_device(gpus[g].device);
    if (buffers[g].send) lib.cuda.free(buffers[g].send);
    if (buffers[g].receive) lib.cuda.free(buffers[g].receive);
  }
  buffers.clear();
}

// Host staging in chunks, so a 16 GiB buffer does not need 16 GiB of host memory.
constexpr std::size_t kChunkFloats = std::size_t{16} << 20;  // 64 MiB

std::string Fill(const NcclLibraries& lib, float* device_buffer, std::size_t count, float value) {
  std::vector<float> chunk(std::min(count, kChunkFloats), value);
  for (std::size_t done = 0; done < count; done += chunk.size()) {
    const std::size_t n = std::min(chunk.size(), count - done);
    const CudaError code =
        lib.cuda.memcpy(device_buffer + done, chunk.data(), n * sizeof(float), kCudaMemcpyHostToDevice);
    if (code != kCudaSuccess) return lib.cuda.ErrorText("cudaMemcpy (fill)", code);
  }
  return "";
}

// Elements that are not `expected` (nccl-tests' #wrong), or -1 on a copy error.
long long CountWrong(const NcclLibraries& lib, const float* device_buffer, std::size_t count, float expected) {
  std::vector<float> chunk(std::min(count, kChunkFloats));
  long long wrong = 0;
  for (std::size_t done = 0; done < count; done += chunk.size()) {
    const std::size_t n = std::min(chunk.size(), count - done);
    const CudaError code =
        lib.cuda.memcpy(chunk.data(), device_buffer + done, n * sizeof(float), kCudaMemcpyDeviceToHost);
    if (code != kCudaSuccess) {
      return -1;
    }
    for (std::size_t i = 0; i < n; ++i) wrong += chunk[i] != expected ? 1 : 0;
  }
  return wrong;
}

// Every block of `blocks` written with its value.
std::string FillBlocks(const NcclLibraries& lib, void* device_buffer, const Blocks& blocks) {
  for (std::size_t i = 0; i < blocks.count; ++i) {
    auto problem = Fill(lib, static_cast<float*>(device_buffer) + i * blocks.floats, blocks.floats,
                        blocks.value(static_cast<int>(i)));
    if (!problem.empty()) return problem;
  }
  return "";
}

// Wrong elements over every block, or -1 on a copy error.
long long CountWrongInBlocks(const NcclLibraries& lib, const void* device_buffer, const Blocks& blocks) {
  long long wrong = 0;
  for (std::size_t i = 0; i < blocks.count; ++i) {
    const long long in_block = CountWrong(lib, static_cast<const float*>(device_buffer) + i * blocks.floats,
                                          blocks.floats, blocks.value(static_cast<int>(i)));
    if (in_block < 0) return -1;
    wrong += in_block;
  }
  return wrong;
}

// One GPU's share of `collective` on `comm`, as nccl-tests issues it: alltoall is a send and a
// receive of one block to and from every rank (alltoall_perf), the others one NCCL call.
NcclResult Issue(const NcclLibraries& lib, const std::string& collective, const Gpu& gpu, const Buffers& buffers,
                 const CollectiveLayout& layout, int nranks) {
  const Nccl& n = lib.nccl;
  if (collective == "alltoall") {
    const std::size_t block = layout.send.floats;
    for (int peer = 0; peer < nranks; ++peer) {
      const std::size_t offset = static_cast<std::size_t>(peer) * block;
      NcclResult code = n.send(static_cast<const float*>(buffers.send) + offset, block, kNcclFloat32, peer, gpu.comm,
                               gpu.stream);
      if (code == kNcclSuccess) {
        code = n.recv(static_cast<float*>(buffers.receive) + offset, block, kNcclFloat32, peer, gpu.comm, gpu.stream);
      }
      if (code != kNcclSuccess) return code;
    }
    return kNcclSuccess;
  }
  if (collective == "allgather") {
    return n.all_gather(buffers.send, buffers.receive, layout.send.floats, kNcclFloat32, gpu.comm, gpu.stream);
  }
  if (collective == "reduce_scatter") {
    return n.reduce_scatter(buffers.send, buffers.receive, layout.receive.floats, kNcclFloat32, kNcclSum, gpu.comm,
                            gpu.stream);
  }
  return n.all_reduce(buffers.send, buffers.receive, layout.send.floats, kNcclFloat32, kNcclSum, gpu.comm, gpu.stream);
}

// One group of the collective (every GPU's share), as NCCL requires when one thread drives
// several devices.
std::string RunOnce(const NcclLibraries& lib, const std::string& collective, const std::vector<Gpu>& gpus,
                    const std::vector<Buffers>& buffers, const std::vector<CollectiveLayout>& layouts, int nranks) {
  const std::string call = collective == "allreduce" ? "ncclAllReduce" : "nccl " + collective;
  NcclResult code = lib.nccl.group_start();
  if (code != kNcclSuccess) return lib.nccl.ErrorText("ncclGroupStart", code);
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    code = Issue(lib, collective, gpus[g], buffers[g], layouts[g], nranks);
    if (code != kNcclSuccess) {
      lib.nccl.group_end();
      return lib.nccl.ErrorText(call.c_str(), code);
    }
  }
  code = lib.nccl.group_end();
  if (code != kNcclSuccess) return lib.nccl.ErrorText((call + " (group end)").c_str(), code);
  return "";
}

std::string Synchronize(const NcclLibraries& lib, const std::vector<Gpu>& gpus) {
  for (const auto& gpu : gpus) {
    lib.cuda.set_device(gpu.device);
    if (const CudaError code = lib.cuda.stream_synchronize(gpu.stream); code != kCudaSuccess) {
      return lib.cuda.ErrorText("cudaStreamSynchronize", code) + " (GPU " + std::to_string(gpu.device) + ")";
    }
  }
  return "";
}

// One collective at one size: every GPU's buffers filled as its layout says
// (nccl_collective_layout.h), out of place, warm-up, timed iterations, then every element
// of every result checked.
std::string MeasureSize(const NcclLibraries& lib, const std::vector<Gpu>& gpus, int nranks,
                        const MeasureRequest& request, std::string& row) {
  std::vector<CollectiveLayout> layouts;
  for (const auto& gpu : gpus) {
    auto layout = LayoutOf(request.collective, gpu.rank, nranks, request.size_bytes);
    if (!layout || layout->send.floats == 0) return "cannot lay out " + request.collective + " of " +
                                                    std::to_string(request.size_bytes) + " B over " +
                                                    std::to_string(nranks) + " ranks";
    layouts.push_back(std::move(*layout));
  }
  std::vector<Buffers> buffers(gpus.size());
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    lib.cuda.set_device(gpus[g].device);
    const std::size_t send_bytes = layouts[g].send.TotalFloats() * sizeof(float);
    const std::size_t receive_bytes = layouts[g].receive.TotalFloats() * sizeof(float);
    CudaError code = lib.cuda.malloc(&buffers[g].send, send_bytes);
    if (code == kCudaSuccess) code = lib.cuda.malloc(&buffers[g].receive, receive_bytes);
    std::string problem = code == kCudaSuccess ? FillBlocks(lib, buffers[g].send, layouts[g].send)
                                               : lib.cuda.ErrorText("cudaMalloc", code);
    if (!problem.empty()) {
      FreeBuffers(lib, gpus, buffers);
      return problem + " (GPU " + std::to_string(gpus[g].device) + ", " + std::to_string(send_bytes) + " + " +
             std::to_string(receive_bytes) + " B)";
    }
  }
  const std::string& collective = request.collective;
  std::string problem;
  for (int i = 0; i < request.iterations.warmup && problem.empty(); ++i) {
    problem = RunOnce(lib, collective, gpus, buffers, layouts, nranks);
  }
  if (problem.empty()) problem = Synchronize(lib, gpus);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < request.iterations.iterations && problem.empty(); ++i) {
    problem = RunOnce(lib, collective, gpus, buffers, layouts, nranks);
  }
  if (problem.empty()) problem = Synchronize(lib, gpus);
  const double time_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(request.iterations.iterations);
  long long wrong = 0;
  for (std::size_t g = 0; g < gpus.size() && problem.empty(); ++g) {
    lib.cuda.set_device(gpus[g].device);
    const long long on_gpu = CountWrongInBlocks(lib, buffers[g].receive, layouts[g].receive);
    if (on_gpu < 0) problem = "cudaMemcpy (check) failed on GPU " + std::to_string(gpus[g].device);
    wrong += on_gpu;
  }
  FreeBuffers(lib, gpus, buffers);
  if (!problem.empty()) return problem;
  row = FormatRecord("row", {{"size_bytes", std::to_string(request.size_bytes)},
                             {"time_us", std::to_string(time_us)},
                             {"wrong", std::to_string(wrong)}});
  return "";
}

}  // namespace

int NcclWorkerMain(const std::vector<std::string>& args) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlives the run that controls it
  std::string work_dir;
  std::string library_dir;
  bool root = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--work-dir" && i + 1 < args.size()) work_dir = args[++i];
    if (args[i] == "--library-dir" && i + 1 < args.size()) library_dir = args[++i];
    if (args[i] == "--root") root = true;
  }
  if (work_dir.empty()) return SayError("start", "usage: __nccl-worker --work-dir DIR [--root] [--library-dir DIR]");

  auto loaded = LoadNcclLibraries(library_dir);
  if (!loaded) {
    Say(FormatRecord("unavailable", {{"reason", loaded.error()}}));
    return 1;
  }
  const NcclLibraries& lib = *loaded;
  int count = 0;
  if (const CudaError code = lib.cuda.device_count(&count); code != kCudaSuccess || count <= 0) {
    Say(FormatRecord("unavailable",
                     {{"reason", code != kCudaSuccess ? lib.cuda.ErrorText("cudaGetDeviceCount", code)
                                                      : std::string("CUDA sees no GPU (cudaGetDeviceCount = 0)")}}));
    return 1;
  }
  int nccl_version = 0;
  int runtime = 0;
  int driver = 0;
  lib.nccl.get_version(&nccl_version);
  lib.cuda.runtime_version(&runtime);
  lib.cuda.driver_version(&driver);
  std::vector<Gpu> gpus(static_cast<std::size_t>(count));
  std::string devices;
  for (int d = 0; d < count; ++d) {
    gpus[static_cast<std::size_t>(d)].device = d;
    char bus_id[32] = {};
    if (lib.cuda.bus_id(bus_id, sizeof(bus_id), d) != kCudaSuccess) std::snprintf(bus_id, sizeof(bus_id), "unknown");
    devices += (devices.empty() ? "" : " ") + std::string(bus_id);
  }
  Say(FormatRecord("ready", {{"gpus", std::to_string(count)},
                             {"nccl_version", NcclVersionText(nccl_version)},
                             {"cuda_runtime", CudaVersionText(runtime)},
                             {"cuda_driver", CudaVersionText(driver)},
                             {"libraries", lib.cuda_name + " " + lib.nccl_name},
                             {"devices", devices}}));
  if (root) {
    NcclUniqueId id;
    if (const NcclResult code = lib.nccl.get_unique_id(&id); code != kNcclSuccess) {
      return SayError("unique-id", lib.nccl.ErrorText("ncclGetUniqueId", code));
    }
    Say(FormatRecord("unique-id", {{"hex", ToHex(std::string(id.internal, sizeof(id.internal)))}}));
  }

  int nranks = 0;
  for (std::string text; std::getline(std::cin, text);) {
    auto parsed = ParseRecordLines(text, "the parent");
    if (!parsed || parsed->empty()) continue;
    const RecordLine& line = parsed->front();
    if (line.kind == "quit") break;
    if (line.kind == "init") {
      const auto start = std::chrono::steady_clock::now();
      if (auto problem = InitCommunicators(lib, line, gpus); !problem.empty()) return SayError("init", problem);
      nranks = static_cast<int>(WholeInteger(line.Get("nranks")).value_or(0));
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      Say(FormatRecord("initialized", {{"seconds", std::to_string(seconds)}}));
    } else if (line.kind == "measure") {
      if (nranks == 0) return SayError("measure", "measure before init");
      const auto request = ParseMeasureLine(text);
      if (!request) return SayError("measure", request.error());
      if (const std::string missing = lib.nccl.MissingFor(request->collective); !missing.empty()) {
        Say(NotMeasuredLine(request->collective, missing));
        continue;
      }
      std::string row;
      if (auto problem = MeasureSize(lib, gpus, nranks, *request, row); !problem.empty()) {
        return SayError("measure", problem);
      }
      Say(row);
    }
  }
  for (auto& gpu : gpus) {
    if (gpu.comm != nullptr) lib.nccl.comm_destroy(gpu.comm);
    if (gpu.stream != nullptr) {
      lib.cuda.set_device(gpu.device);
      lib.cuda.stream_destroy(gpu.stream);
    }
  }
  return 0;
}

namespace {
const ChildVerbRegistration kChildVerb(kWorkerVerb, NcclWorkerMain);
}  // namespace

}  // namespace gpuconform::nccl_run
