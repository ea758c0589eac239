// SPDX-License-Identifier: MIT
//
// standin.go — a stand-in for Ollama's ROCm device discovery (Go, standard
// library only: like Ollama it reads directories with system calls, not
// libc, so no LD_PRELOAD hook sees it).  It does what ollama/ollama@fb307609
// does:
//   - starts the runner with its own environment plus LD_LIBRARY_PATH
//     (llm/llama_server.go:445-475 SetupLlamaServerCommandEnv:
//     cmd.Env = os.Environ(), the library path updated);
//   - reads the device's gfx target from the runner's stderr line
//     "Device N: NAME, gfxNNNN (0x...), ..." (discover/amd.go:26-48);
//   - lists LIBDIR/rocblas/library/TensileLibrary_lazy_gfx*.dat with
//     filepath.Glob (discover/amd.go:114-130) and drops a ROCm device whose
//     target is not among them, keeping all when none are listed
//     (discover/amd.go:445-476).
//
// Usage: standin LIBDIR RUNNER.  Prints the runner's output prefixed
// "runner: ", then "keep gfxNNNN" or "dropping ROCm device — no rocblas
// support for gfx target gfxNNNN".
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

var gfxTargetRegex = regexp.MustCompile(`Device\s+(\d+):.*,\s+(gfx[0-9a-f]+)[\s:(]`)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: standin LIBDIR RUNNER")
		os.Exit(2)
	}
	libDir, runner := os.Args[1], os.Args[2]
	cmd := exec.Command(runner, libDir)
	cmd.Env = os.Environ()
	path := libDir
	if old := os.Getenv("LD_LIBRARY_PATH"); old != "" {
		path += string(filepath.ListSeparator) + old
	}
	set := false
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "LD_LIBRARY_PATH=") {
			cmd.Env[i] = "LD_LIBRARY_PATH=" + path
			set = true
		}
	}
	if !set {
		cmd.Env = append(cmd.Env, "LD_LIBRARY_PATH="+path)
	}
	out, err := cmd.CombinedOutput()
	var gfx []string
	scanner := bufio.NewScanner(strings.NewReader(string(out)))
	for scanner.Scan() {
		line := scanner.Text()
		fmt.Println("runner: " + line)
		if m := gfxTargetRegex.FindStringSubmatch(line); m != nil {
			gfx = append(gfx, m[2])
		}
	}
	if err != nil {
		fmt.Println("runner failed:", err)
		os.Exit(1)
	}
	supported := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(libDir, "rocblas", "library", "TensileLibrary_lazy_gfx*.dat"))
	for _, f := range files {
		t := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "TensileLibrary_lazy_"), ".dat")
		supported[t] = true
	}
	for _, g := range gfx {
		if len(supported) == 0 || supported[g] {
			fmt.Println("keep " + g)
		} else {
			fmt.Println("dropping ROCm device — no rocblas support for gfx target " + g)
		}
	}
}
