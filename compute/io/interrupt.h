// Ctrl-C (SIGINT) and SIGTERM. Where a run watches for them (a headless run's steps, the
// window's frames: an InterruptWatch alive), the first asks it to end cleanly: the recording
// finished with its index, what was captured kept, and out with 128 + the signal's number; a
// second ends the process at once. Where nothing watches, the first ends the process at once,
// as it would without vklab's handler. Either way no output is left half-written: every file
// is written beside its target and renamed (output.h).
#pragma once

namespace io {

void install_interrupt_handlers();  // once, at the start of main()

// The signal asked for (SIGINT, SIGTERM), 0 while none came.
int interrupted();

// While one is alive, the first signal is only recorded (interrupted() says it).
class InterruptWatch {
 public:
  InterruptWatch();
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;
};

// "SIGINT (Ctrl-C)" or "SIGTERM".
const char* signal_name(int sig);

}  // namespace io
