// tdoku's solver loop, for measurement only: reads a puzzle file (81
// characters a line, '.' or '0' empty), then times, in CPU time of this
// thread, PASSES passes (default 1) of TdokuSolverDpllTriadSimd(puzzle,
// limit 2) over every puzzle, file reading excluded, and prints one JSON line
// with the median pass. tdoku itself is not in this repository: vs-tdoku.sh
// compiles this file against a tdoku checkout named by TDOKU_SRC.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

extern "C" size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit, uint32_t configuration,
                                           char *solution, size_t *num_guesses);

static double thread_cpu() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: tdoku-loop FILE [PASSES]\n");
        return 2;
    }
    std::ifstream f(argv[1]);
    std::string line;
    std::vector<std::string> puzzles;
    while (std::getline(f, line)) {
        if (line.size() < 81 || line[0] == '#') continue;
        line.resize(81);
        for (auto &c : line) if (c == '0') c = '.';
        puzzles.push_back(line);
    }
    int passes = argc > 2 ? std::max(1, atoi(argv[2])) : 1;
    std::vector<double> times;
    size_t counts[3] = {0, 0, 0}, guesses = 0;
    char solution[82];
    for (int k = 0; k < passes; k++) {
        counts[0] = counts[1] = counts[2] = 0;
        guesses = 0;
        double t0 = thread_cpu();
        for (auto &p : puzzles) {
            size_t g = 0;
            size_t n = TdokuSolverDpllTriadSimd(p.c_str(), 2, 0, solution, &g);
            guesses += g;
            counts[n > 2 ? 2 : n]++;
        }
        times.push_back(thread_cpu() - t0);
    }
    std::sort(times.begin(), times.end());
    double t = times[times.size() / 2];
    printf("{\"runner\":\"tdoku\",\"puzzles\":%zu,\"cpu_seconds\":%.6f,\"none\":%zu,\"unique\":%zu,"
           "\"multiple\":%zu,\"guesses\":%zu}\n",
           puzzles.size(), t, counts[0], counts[1], counts[2], guesses);
    return 0;
}
