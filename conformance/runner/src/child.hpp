// child.hpp — a process under test on the other end of three pipes (process.cpp's encoders,
// sink_process.cpp's sinks).
//
// A process under test may crash, hang, flood its output, never read its input, or leave
// children behind. So: every child leads its own process group and the whole group is killed
// at the deadline; stdout is read up to a limit and stderr up to a fixed cap (the rest is
// drained and dropped), all through poll() on non-blocking pipes, so the runner never blocks on
// a child and never holds more than the caps in memory. Pipes are close-on-exec, so parallel
// workers do not leak each other's pipe ends into their children (which would hide EOF).
// Descendants that leave the group (setsid) are caught another way: the runner is a child
// subreaper, so they become its children when the process under test dies, and every child it
// did not start itself is killed and reaped after each one.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "sinkcheck/conform/encoder.hpp"

namespace sinkcheck::conform::detail {

using clock_type = std::chrono::steady_clock;

inline void prepare_runner_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        // A child that exits without reading its input must not take the runner down with it.
        ::signal(SIGPIPE, SIG_IGN);
        // Orphaned descendants of an encoder become the runner's children, not init's, so
        // that reap_strays() can find and kill them.
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    });
}

/// The encoder processes the runner started and has not reaped: every other child is a stray.
/// spawn_mutex is held from posix_spawn to the insertion, so that no sweep can take a child
/// just started for a stray.
inline std::mutex spawn_mutex;
inline std::set<pid_t>& started_children() {
    static std::set<pid_t> pids;
    return pids;
}

/// The runner's children, from /proc/self/task/*/children (a subreaper adopts orphans on any
/// of its threads).
inline std::vector<pid_t> children_of_this_process() {
    std::vector<pid_t> out;
    DIR* tasks = ::opendir("/proc/self/task");
    if (tasks == nullptr) return out;
    while (const dirent* t = ::readdir(tasks)) {
        if (t->d_name[0] == '.') continue;
        std::ifstream in(std::string("/proc/self/task/") + t->d_name + "/children");
        long pid = 0;
        while (in >> pid) out.push_back(static_cast<pid_t>(pid));
    }
    ::closedir(tasks);
    return out;
}

/// Kills and reaps every child the runner did not start: descendants of an encoder that left
/// its process group and outlived it. A stray's own children are adopted when it dies, hence
/// the rounds.
inline void reap_strays() {
    for (int round = 0; round < 64; ++round) {
        std::vector<pid_t> strays;
        {
            const std::lock_guard<std::mutex> lock(spawn_mutex);
            for (pid_t pid : children_of_this_process()) {
                if (started_children().count(pid) == 0) strays.push_back(pid);
            }
        }
        if (strays.empty()) return;
        for (pid_t pid : strays) {
            ::kill(-pid, SIGKILL);  // its own group, when it made one (setsid, setpgid)
            ::kill(pid, SIGKILL);
            int st = 0;
            while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
        }
    }
}

inline double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

/// A running child with three pipes, in its own process group.
class child {
public:
    child() = default;
    child(const child&) = delete;
    child& operator=(const child&) = delete;
    ~child() {
        kill_and_reap();
        reap_strays();
    }

    /// Starts argv with extra environment entries; on failure returns false and sets error. A
    /// program that cannot be run at all throws run_stopped, its message led by `option` (the
    /// command-line option that named it).
    bool start(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env, std::string& error,
               const char* option = "--encoder") {
        int in[2], out[2], err[2];
        if (::pipe2(in, O_CLOEXEC) != 0) return sys_error("pipe", error);
        if (::pipe2(out, O_CLOEXEC) != 0) {
            close_pair(in);
            return sys_error("pipe", error);
        }
        if (::pipe2(err, O_CLOEXEC) != 0) {
            close_pair(in);
            close_pair(out);
            return sys_error("pipe", error);
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawn_file_actions_adddup2(&actions, err[1], 2);
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        sigset_t defaults;
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGPIPE);
        sigset_t empty;
        sigemptyset(&empty);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setsigmask(&attr, &empty);
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

        std::vector<std::string> env_strings;
        for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
            const std::string entry(*e);
            bool overridden = false;
            for (const std::string& x : extra_env) {
                const std::size_t eq = x.find('=');
                if (entry.compare(0, eq + 1, x, 0, eq + 1) == 0) overridden = true;
            }
            if (!overridden) env_strings.push_back(entry);
        }
        env_strings.insert(env_strings.end(), extra_env.begin(), extra_env.end());
        std::vector<char*> envp;
        envp.reserve(env_strings.size() + 1);
        for (std::string& s : env_strings) envp.push_back(s.data());
        envp.push_back(nullptr);
        std::vector<std::string> args = argv;
        std::vector<char*> argp;
        argp.reserve(args.size() + 1);
        for (std::string& s : args) argp.push_back(s.data());
        argp.push_back(nullptr);

        int rc = 0;
        {
            const std::lock_guard<std::mutex> lock(spawn_mutex);
            rc = ::posix_spawnp(&pid_, argp[0], &actions, &attr, argp.data(), envp.data());
            if (rc == 0) started_children().insert(pid_);
        }
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        ::close(in[0]);
        ::close(out[1]);
        ::close(err[1]);
        if (rc != 0) {
            ::close(in[1]);
            ::close(out[0]);
            ::close(err[0]);
            pid_ = -1;
            error = "cannot run '" + argv[0] + "': " + std::strerror(rc);
            if (argv[0].find('/') == std::string::npos) error += " (looked up in PATH)";
            // The program itself cannot be run: every vector would say the same.
            if (rc == ENOENT || rc == EACCES || rc == ENOEXEC || rc == ENOTDIR || rc == ELOOP || rc == ENAMETOOLONG) {
                throw run_stopped(std::string(option) + ": " + error);
            }
            return false;
        }
        stdin_ = in[1];
        stdout_ = out[0];
        stderr_ = err[0];
        for (int fd : {stdin_, stdout_, stderr_}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        return true;
    }

    bool running() const noexcept { return pid_ > 0 && !reaped_; }
    int status() const noexcept { return status_; }
    bool reaped() const noexcept { return reaped_; }

    void close_stdin() { close_fd(stdin_); }

    /// Non-blocking check for exit.
    bool poll_exit() {
        if (pid_ <= 0 || reaped_) return reaped_;
        int st = 0;
        const pid_t r = ::waitpid(pid_, &st, WNOHANG);
        if (r == pid_) reaped(st);
        return reaped_;
    }

    /// SIGKILL to the whole process group, then reap the child (never blocks for long: a
    /// killed process exits).
    void kill_and_reap() {
        close_fd(stdin_);
        close_fd(stdout_);
        close_fd(stderr_);
        if (pid_ > 0 && !reaped_) {
            ::kill(-pid_, SIGKILL);
            ::kill(pid_, SIGKILL);
            int st = 0;
            while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {}
            reaped(st);
        } else if (pid_ > 0) {
            ::kill(-pid_, SIGKILL);  // descendants that outlived the child
        }
    }

    /// Waits for the exit until deadline; false on timeout.
    bool wait_exit(clock_type::time_point deadline) {
        while (!poll_exit()) {
            if (clock_type::now() >= deadline) return false;
            ::usleep(1000);
        }
        // Whatever the child left running in its group goes with it.
        ::kill(-pid_, SIGKILL);
        return true;
    }

    int fd_in() const noexcept { return stdin_; }
    int fd_out() const noexcept { return stdout_; }
    int fd_err() const noexcept { return stderr_; }
    void drop_out() { close_fd(stdout_); }
    void drop_err() { close_fd(stderr_); }

private:
    void reaped(int status) {
        status_ = status;
        reaped_ = true;
        const std::lock_guard<std::mutex> lock(spawn_mutex);
        started_children().erase(pid_);
    }
    static bool sys_error(const char* what, std::string& error) {
        error = std::string(what) + ": " + std::strerror(errno);
        return false;
    }
    static void close_pair(int p[2]) {
        ::close(p[0]);
        ::close(p[1]);
    }
    static void close_fd(int& fd) {
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    }

    pid_t pid_ = -1;
    int stdin_ = -1, stdout_ = -1, stderr_ = -1;
    bool reaped_ = false;
    int status_ = 0;
};

enum class pump_end { done, timeout, output_limit, stdout_closed, failed };

/// Appends what fits under cap; the rest of a chatty stderr is read and dropped.
inline void append_capped(std::string& err, const char* p, ssize_t n, std::size_t cap) {
    const std::size_t room = err.size() < cap ? cap - err.size() : 0;
    err.append(p, std::min<std::size_t>(room, static_cast<std::size_t>(n)));
}

/// Moves bytes between the runner and a child until want(stdout bytes so far) says enough,
/// stdout closes, the deadline passes or stdout exceeds limit. Writes `input` (from *written)
/// as the child takes it. stderr is appended to err up to err_cap, the rest dropped.
/// How long stdout may stay open after the child has exited (a descendant holding it), in
/// per-vector mode, before the runner stops reading.
inline constexpr auto exit_grace = std::chrono::milliseconds(250);

template <class Want>
pump_end pump(child& c, const std::string& input, std::size_t& written, bool per_vector, std::vector<std::uint8_t>& out,
              std::string& err, std::size_t limit, std::size_t err_cap, clock_type::time_point deadline, Want want) {
    char buf[65536];
    bool exited = false;
    // Room for the whole allowance at once: untouched pages cost no memory, and the buffer is
    // never copied to grow (a doubling vector would hold 1.5 times the limit while it copies).
    out.reserve(limit + 1);
    for (;;) {
        if (per_vector && written == input.size()) c.close_stdin();
        if (want(out)) return pump_end::done;
        if (per_vector && !exited && c.poll_exit()) {
            exited = true;
            deadline = std::min(deadline, clock_type::now() + exit_grace);
        }
        if (exited && clock_type::now() >= deadline) return pump_end::stdout_closed;
        if (out.size() > limit) return pump_end::output_limit;
        pollfd fds[3];
        nfds_t n = 0;
        int in_slot = -1, out_slot = -1, err_slot = -1;
        if (c.fd_in() >= 0 && written < input.size()) {
            fds[n] = {c.fd_in(), POLLOUT, 0};
            in_slot = static_cast<int>(n++);
        }
        if (c.fd_out() >= 0) {
            fds[n] = {c.fd_out(), POLLIN, 0};
            out_slot = static_cast<int>(n++);
        }
        if (c.fd_err() >= 0) {
            fds[n] = {c.fd_err(), POLLIN, 0};
            err_slot = static_cast<int>(n++);
        }
        if (out_slot < 0) return pump_end::stdout_closed;
        const auto now = clock_type::now();
        if (now >= deadline) return pump_end::timeout;
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
        // Short polls in per-vector mode notice the child's exit (its pipes may outlive it).
        const int r = ::poll(fds, n, static_cast<int>(std::min<long long>(ms, per_vector ? 20 : 1000)));
        if (r < 0) {
            if (errno == EINTR) continue;
            return pump_end::failed;
        }
        if (in_slot >= 0 && (fds[in_slot].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
            const ssize_t k = ::write(c.fd_in(), input.data() + written, input.size() - written);
            if (k > 0) {
                written += static_cast<std::size_t>(k);
            } else if (k < 0 && errno != EAGAIN && errno != EINTR) {
                written = input.size();  // the child closed its stdin; it may still answer
                c.close_stdin();
            }
        }
        if (out_slot >= 0 && (fds[out_slot].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            // One byte past the limit tells a flood; nothing beyond it is ever held.
            const ssize_t k = ::read(c.fd_out(), buf, std::min(sizeof buf, limit + 1 - out.size()));
            if (k > 0) {
                out.insert(out.end(), buf, buf + k);
            } else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
                c.drop_out();
            }
        }
        if (err_slot >= 0 && (fds[err_slot].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            const ssize_t k = ::read(c.fd_err(), buf, sizeof buf);
            if (k > 0) {
                append_capped(err, buf, k, err_cap);
            } else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
                c.drop_err();
            }
        }
    }
}

/// After stdout closed: keeps reading stderr until the child exits or the deadline passes.
inline bool wait_draining_stderr(child& c, std::string& err, std::size_t cap, clock_type::time_point deadline) {
    char buf[4096];
    while (!c.poll_exit()) {
        const auto now = clock_type::now();
        if (now >= deadline) return false;
        if (c.fd_err() < 0) {
            ::usleep(1000);
            continue;
        }
        pollfd fd = {c.fd_err(), POLLIN, 0};
        if (::poll(&fd, 1, 10) > 0) {
            const ssize_t k = ::read(c.fd_err(), buf, sizeof buf);
            if (k > 0) {
                append_capped(err, buf, k, cap);
            } else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
                c.drop_err();
            }
        }
    }
    return true;
}

/// Reads what stderr still holds without waiting (after the child has gone).
inline void drain_stderr(child& c, std::string& err, std::size_t cap) {
    char buf[4096];
    while (c.fd_err() >= 0) {
        const ssize_t k = ::read(c.fd_err(), buf, sizeof buf);
        if (k <= 0) break;
        append_capped(err, buf, k, cap);
    }
}

inline void describe_exit(int status, encode_outcome& o) {
    if (WIFEXITED(status)) {
        o.exit_status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        o.signal = WTERMSIG(status);
    }
}

inline std::string signal_text(int sig) {
    const char* name = ::strsignal(sig);
    return "signal " + std::to_string(sig) + (name != nullptr ? std::string(" (") + name + ")" : std::string());
}

}  // namespace sinkcheck::conform::detail
