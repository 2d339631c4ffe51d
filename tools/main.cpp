// tools/main.cpp — `sinkcheck`: finds the subcommand in the command table, runs it on
// a large stack and turns every way it can fail into a message and a documented exit code.
//
// The large stack is for the oracle: nlohmann 3.11.2 reads, writes and prints recursively, and
// the tool accepts documents max_input_depth levels deep. No input may crash the tool, so every
// exception ends here as a message.
#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "sinkcheck/error.hpp"
#include "sinkcheck/testkit/sink_traits.hpp"

#ifndef SINKCHECK_VERSION
#define SINKCHECK_VERSION "unknown"
#endif

namespace sinkcheck::cli {
namespace {

/// A command's help with its placeholders filled: the formats (with_format_names) and
/// "{windows}", the window sizes `check` runs a windowed sink at (testkit::window_sizes()).
std::string help_text(std::string_view text) {
    return with_format_names(
        text, {{"{windows}", detail::joined(testkit::window_sizes(), testkit::window_name, ", ", " and ")}});
}

void print_tool_usage(std::FILE* out) {
    std::string text =
        "usage: sinkcheck COMMAND [OPTIONS] [FILE]\n"
        "\n"
        "Encodes JSON-like values into {titles} with the\n"
        "sinkcheck reference encoders, and checks every output sink against nlohmann 3.11.2.\n"
        "\n"
        "commands:\n";
    std::size_t width = 0;
    for (const command* c : command_table) width = std::max(width, c->name.size());
    for (const command* c : command_table) {
        std::string name(c->name);
        name.resize(width + 2, ' ');
        text += "  " + name + std::string(c->summary) + "\n";
    }
    text +=
        "\n"
        "`sinkcheck COMMAND --help` describes a command. FILE absent or `-`: standard input.\n"
        "exit status: 0 ok, 1 check failed or encoder/sink error, 2 usage, input or output error\n";
    std::fputs(with_format_names(text).c_str(), out);
}

/// A command's usage text, ending with a newline whether or not the text does.
void print_usage(const command& c) {
    std::string text = help_text(c.usage);
    if (text.empty() || text.back() != '\n') {
        text += '\n';
    }
    std::fputs(text.c_str(), stdout);
}

const command* find_command(std::string_view name) {
    for (const command* c : command_table) {
        if (c->name == name) {
            return c;
        }
    }
    return nullptr;
}

bool asks_for_help(const std::vector<std::string>& args) {
    for (const std::string& a : args) {
        if (a == "--") {
            return false;
        }
        if (a == "--help" || a == "-h") {
            return true;
        }
    }
    return false;
}

/// Runs the command; every exception becomes a message on stderr and an exit code.
int run_guarded(const command& cmd, const std::vector<std::string>& args) {
    try {
        return cmd.run(args);
    } catch (const usage_error& e) {
        // the synopsis (the usage text up to its first blank line), not the whole help
        const std::string synopsis = with_format_names(cmd.usage.substr(0, cmd.usage.find("\n\n") + 1));
        const std::string name(cmd.name);
        std::fprintf(stderr, "sinkcheck %s: %s\n%s`sinkcheck %s --help` tells more.\n", name.c_str(), e.what(),
                     synopsis.c_str(), name.c_str());
        return exit_usage;
    } catch (const input_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    } catch (const sinkcheck::encode_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_failed;
    } catch (const sinkcheck::sink_error& e) {
        std::fprintf(stderr, "sink error after %zu bytes: %s\n", e.position(), e.what());
        return exit_failed;
    } catch (const std::bad_alloc&) {
        std::fputs("sinkcheck: out of memory (input too large)\n", stderr);
        return exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sinkcheck: unexpected error: %s\n", e.what());
        return exit_failed;
    } catch (...) {
        std::fputs("sinkcheck: unexpected error of unknown type\n", stderr);
        return exit_failed;
    }
}

struct job {
    const command* cmd;
    const std::vector<std::string>* args;
    int status;
};

void* run_job(void* p) {
    auto* j = static_cast<job*>(p);
    j->status = run_guarded(*j->cmd, *j->args);
    return nullptr;
}

/// Runs the job on a thread with a 1 GiB stack (address space only; pages are touched as the
/// recursion goes), smaller ones if that is refused, or on this thread as a last resort.
int run_on_large_stack(job& j) {
    for (std::size_t mib : {std::size_t{1024}, std::size_t{256}}) {
        pthread_attr_t attr;
        if (pthread_attr_init(&attr) != 0) {
            break;
        }
        pthread_t thread;
        const bool started =
            pthread_attr_setstacksize(&attr, mib << 20) == 0 && pthread_create(&thread, &attr, run_job, &j) == 0;
        pthread_attr_destroy(&attr);
        if (started) {
            pthread_join(thread, nullptr);
            return j.status;
        }
    }
    run_job(&j);
    return j.status;
}

}  // namespace
}  // namespace sinkcheck::cli

int main(int argc, char** argv) {
    using namespace sinkcheck::cli;
    if (argc < 2) {
        print_tool_usage(stderr);
        return exit_usage;
    }
    const std::string first = argv[1];
    if (first == "--help" || first == "-h" || first == "help") {
        if (first == "help" && argc > 2) {
            if (const command* c = find_command(argv[2])) {
                print_usage(*c);
                return exit_ok;
            }
            std::fprintf(stderr, "sinkcheck: unknown command '%s'\n\n", argv[2]);
            print_tool_usage(stderr);
            return exit_usage;
        }
        print_tool_usage(stdout);
        return exit_ok;
    }
    if (first == "--version") {
        std::puts("sinkcheck " SINKCHECK_VERSION);
        return exit_ok;
    }
    const command* cmd = find_command(first);
    if (cmd == nullptr) {
        std::fprintf(stderr, "sinkcheck: unknown command '%s'\n\n", first.c_str());
        print_tool_usage(stderr);
        return exit_usage;
    }
    const std::vector<std::string> args(argv + 2, argv + argc);
    if (asks_for_help(args)) {
        print_usage(*cmd);
        return exit_ok;
    }
    job j{cmd, &args, exit_failed};
    return run_on_large_stack(j);
}
