# Writes OUTPUT, a C++ file defining gpuconform::torchrun::WorkerScript() from
# probes/torchrun/torchrun_worker.py: the worker ships inside the binary, so it is wherever
# gpuconform is, and the user never types it in.
file(READ ${SOURCE_DIR}/probes/torchrun/torchrun_worker.py text)
file(WRITE ${OUTPUT}.tmp "// Generated from probes/torchrun/torchrun_worker.py by cmake/EmbedTorchrunWorker.cmake. Do not edit.
#include \"probes/torchrun/torchrun_probe.h\"

namespace gpuconform::torchrun {

const std::string& WorkerScript() {
  static const std::string kScript = R\"GPUCONFORM_PY(${text})GPUCONFORM_PY\";
  return kScript;
}

}  // namespace gpuconform::torchrun
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
