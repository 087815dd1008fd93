// Ctrl-C and SIGTERM (interrupt.h).
#include "compute/io/interrupt.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

#ifdef _WIN32
#include "compute/io/windows_api.h"
// windows.h first
#include <io.h>
#else
#include <signal.h>
#include <unistd.h>
#endif

namespace io {

namespace {

std::atomic<int> asked{0};     // the first signal
std::atomic<int> watchers{0};  // InterruptWatch objects alive
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

void say(const char* text) {
#ifdef _WIN32
  int ignored = ::_write(2, text, unsigned(std::strlen(text)));
#else
  ssize_t ignored = ::write(2, text, std::strlen(text));
#endif
  (void)ignored;
}

// The first signal while a run watches: recorded, said, and true; else false.
bool record(int sig) {
  int expected = 0;
  if (watchers.load() > 0 && asked.compare_exchange_strong(expected, sig)) {
    say("\nvklab: interrupted: finishing what is being written (press Ctrl-C again to quit at once)\n");
    return true;
  }
  return false;
}

#ifdef _WIN32
// Windows: Ctrl-C and Ctrl-Break as SIGINT, closing the console or ending the session as SIGTERM
// (the handler runs on a thread of its own; returning FALSE lets the default end the process).
BOOL WINAPI on_console_event(DWORD event) {
  const int sig = event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT ? SIGINT : SIGTERM;
  return record(sig) ? TRUE : FALSE;
}
#else
extern "C" void on_signal(int sig) {
  const int saved = errno;  // the interrupted code may be about to read it
  struct Restore {
    int e;
    ~Restore() { errno = e; }
  } restore{saved};
  if (record(sig)) return;
  // Nothing watches, or this is the second: the default action (the process ends by the signal).
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}
#endif

}  // namespace

#ifdef _WIN32
void install_interrupt_handlers() { SetConsoleCtrlHandler(on_console_event, TRUE); }
#else
void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // a read or a wait goes on; the watching loop looks between steps
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}
#endif

int interrupted() { return asked.load(); }

InterruptWatch::InterruptWatch() { ++watchers; }
InterruptWatch::~InterruptWatch() { --watchers; }

const char* signal_name(int sig) { return sig == SIGINT ? "SIGINT (Ctrl-C)" : sig == SIGTERM ? "SIGTERM" : "a signal"; }

}  // namespace io
