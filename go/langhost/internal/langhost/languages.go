package langhost

// The three languages the krcloud builds host: what each runs, and how it finds its runtime. One file
// with one import block, so that the hosts' differences stand side by side.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// lang is a Language: its name, the command whose output (trimmed, without prefix) is the runtime's
// version for `pulumi about`, and how it makes the program's process.
type lang struct {
	name    string
	version []string
	prefix  string
	command func(ctx context.Context, req *pulumirpc.RunRequest, engineAddress string) (*exec.Cmd, func(), error)
}

func (l lang) Name() string { return l.name }

func (l lang) Command(ctx context.Context, req *pulumirpc.RunRequest, engineAddress string) (*exec.Cmd, func(), error) {
	return l.command(ctx, req, engineAddress)
}

func (l lang) About(ctx context.Context) (string, string, error) {
	exe, err := exec.LookPath(l.version[0])
	if err != nil {
		return "", "", fmt.Errorf("could not find %s on the $PATH", l.version[0])
	}
	out, err := exec.CommandContext(ctx, exe, l.version[1:]...).Output()
	if err != nil {
		return "", "", fmt.Errorf("running %s %s: %w", exe, strings.Join(l.version[1:], " "), err)
	}
	return exe, strings.TrimPrefix(strings.TrimSpace(string(out)), l.prefix), nil
}

// withProgram ends a run script's arguments: --engine (when the engine gave its address), the
// program ("." when the request names none) and the program's own arguments.
func withProgram(args []string, req *pulumirpc.RunRequest, engineAddress string) []string {
	if engineAddress != "" {
		args = append(args, "--engine", engineAddress)
	}
	program := req.GetProgram()
	if program == "" {
		program = "."
	}
	return append(append(args, program), req.GetArgs()...)
}

func rootDirectory(req *pulumirpc.RunRequest) string {
	if info := req.GetInfo(); info != nil {
		return info.GetRootDirectory()
	}
	return ""
}

// NodeJS runs the program through the run script of the program's own @pulumi/pulumi
// (@pulumi/pulumi/cmd/run), as upstream's host does. Runtime options of Pulumi.yaml: typescript
// (default true), tsconfig, nodeargs. `node` is the first on $PATH.
var NodeJS Language = lang{name: "pulumi-language-nodejs", version: []string{"node", "--version"}, prefix: "v", command: nodeCommand}

func nodeCommand(ctx context.Context, req *pulumirpc.RunRequest, engineAddress string) (*exec.Cmd, func(), error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, nil, errors.New("could not find node on the $PATH")
	}
	dir := ProgramDir(req)
	// From the program's directory, so that the program's own copy of @pulumi/pulumi runs it.
	runScript, err := resolveModule(ctx, node, dir, "@pulumi/pulumi/cmd/run", "in the program's node_modules")
	if err != nil {
		return nil, nil, err
	}
	opts := Options(req)
	typescript := true
	switch t := opts["typescript"].(type) {
	case bool:
		typescript = t
	case string:
		typescript = t != "false"
	}
	var args []string
	if nodeargs, ok := opts["nodeargs"].(string); ok {
		args = strings.Fields(nodeargs)
	}
	args = append(args, runScript)
	for _, kv := range [][2]string{
		{"--organization", req.GetOrganization()}, {"--project", req.GetProject()},
		{"--root-directory", rootDirectory(req)}, {"--stack", req.GetStack()}, {"--pwd", req.GetPwd()},
	} {
		if kv[1] != "" {
			args = append(args, kv[0], kv[1])
		}
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		args = append(args, "--parallel", strconv.Itoa(int(req.GetParallel())))
	}
	args = append(args, "--monitor", req.GetMonitorAddress())
	if Tracing != "" {
		args = append(args, "--tracing", Tracing)
	}
	env, err := Env(req, "PULUMI_NODEJS_TYPESCRIPT="+strconv.FormatBool(typescript))
	if err != nil {
		return nil, nil, err
	}
	if tsconfig, ok := opts["tsconfig"].(string); ok && tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}
	cmd := exec.Command(node, withProgram(args, req, engineAddress)...) //nolint:gosec // running the user's program is the point.
	cmd.Dir = dir
	cmd.Env = env
	return cmd, nil, nil
}

// Python runs the program with the executor script upstream ships next to its host,
// pulumi-language-python-exec (copied from the github.com/pulumi/pulumi/sdk/v3 module at build time
// by scripts/install-go-tool.sh pulumi-languages), and the `pulumi` package installed in the program's
// Python: runtime option `virtualenv` of Pulumi.yaml (relative to the project directory), else
// $PULUMI_PYTHON_CMD, else python3 then python on $PATH. Other options (toolchain: uv/poetry,
// typechecker) are not supported.
var Python Language = lang{name: "pulumi-language-python", version: []string{"python3", "--version"}, prefix: "Python ", command: pythonCommand}

// interpreter returns the Python to run and, for a virtualenv, its directory.
func interpreter(req *pulumirpc.RunRequest) (string, string, error) {
	if venv, ok := Options(req)["virtualenv"].(string); ok && venv != "" {
		if !filepath.IsAbs(venv) {
			root := rootDirectory(req)
			if root == "" {
				root = ProgramDir(req)
			}
			venv = filepath.Join(root, venv)
		}
		exe := filepath.Join(venv, "bin", "python")
		if _, err := os.Stat(exe); err != nil {
			return "", "", fmt.Errorf("the virtualenv %s of Pulumi.yaml has no bin/python: create it with "+
				"`python3 -m venv %s` and pip install the program's requirements", venv, venv)
		}
		return exe, venv, nil
	}
	if cmd := os.Getenv("PULUMI_PYTHON_CMD"); cmd != "" {
		exe, err := exec.LookPath(cmd)
		return exe, "", err
	}
	for _, name := range []string{"python3", "python"} {
		if exe, err := exec.LookPath(name); err == nil {
			return exe, "", nil
		}
	}
	return "", "", errors.New("could not find python3 or python on the $PATH")
}

func pythonCommand(_ context.Context, req *pulumirpc.RunRequest, engineAddress string) (*exec.Cmd, func(), error) {
	exe, venv, err := interpreter(req)
	if err != nil {
		return nil, nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	script := filepath.Join(filepath.Dir(self), "pulumi-language-python-exec")
	if _, err := os.Stat(script); err != nil {
		return nil, nil, fmt.Errorf("%s is missing (run make pulumi-languages)", script)
	}

	args := []string{"-u", script}
	if req.GetOrganization() != "" {
		args = append(args, "--organization", req.GetOrganization())
	}
	if root := rootDirectory(req); root != "" {
		args = append(args, "--root_directory", root)
	}
	args = append(args, "--project", req.GetProject(), "--stack", req.GetStack())
	if req.GetPwd() != "" {
		args = append(args, "--pwd", req.GetPwd())
	}
	// The executor script needs --dry_run and --parallel spelled out (it converts them).
	args = append(args, "--dry_run", strconv.FormatBool(req.GetDryRun()),
		"--parallel", strconv.Itoa(int(req.GetParallel())), "--monitor", req.GetMonitorAddress())
	env, err := Env(req, "PYTHONUNBUFFERED=true")
	if err != nil {
		return nil, nil, err
	}
	if venv != "" {
		env = append(env, "VIRTUAL_ENV="+venv, "PATH="+filepath.Join(venv, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	cmd := exec.Command(exe, withProgram(args, req, engineAddress)...) //nolint:gosec // running the user's program is the point.
	cmd.Dir = ProgramDir(req)
	cmd.Env = env
	return cmd, nil, nil
}

// Go builds the program with `go build` (the go on $PATH, the program's go.mod and the environment's
// GOFLAGS/GOPROXY) into a temporary file and runs it with the PULUMI_* environment the Go SDK's
// pulumi.Run reads. Runtime options of Pulumi.yaml: `binary` (a prebuilt program, relative to the
// project directory) and `buildTarget` (the package to build, default "."). Each run builds again;
// Go's build cache makes the second build fast.
var Go Language = lang{name: "pulumi-language-go", version: []string{"go", "env", "GOVERSION"}, prefix: "go", command: goCommand}

func goCommand(ctx context.Context, req *pulumirpc.RunRequest, engineAddress string) (*exec.Cmd, func(), error) {
	var cleanup func()
	dir := ProgramDir(req)
	opts := Options(req)
	binary, _ := opts["binary"].(string)
	if binary != "" && !filepath.IsAbs(binary) {
		binary = filepath.Join(dir, binary)
	}
	if binary == "" {
		goExe, err := exec.LookPath("go")
		if err != nil {
			return nil, nil, errors.New("could not find go on the $PATH")
		}
		target, _ := opts["buildTarget"].(string)
		if target == "" {
			target = "."
		}
		tmp, err := os.MkdirTemp("", "pulumi-go-program-")
		if err != nil {
			return nil, nil, err
		}
		cleanup = func() { _ = os.RemoveAll(tmp) }
		binary = filepath.Join(tmp, "program")
		build := exec.CommandContext(ctx, goExe, "build", "-o", binary, target) //nolint:gosec
		build.Dir = dir
		build.Stdout = os.Stderr
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return nil, cleanup, fmt.Errorf("go build %s in %s failed: %w", target, dir, err)
		}
	}

	env, err := Env(req,
		"PULUMI_ORGANIZATION="+req.GetOrganization(),
		"PULUMI_PROJECT="+req.GetProject(),
		"PULUMI_ROOT_DIRECTORY="+rootDirectory(req),
		"PULUMI_STACK="+req.GetStack(),
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()),
		"PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel())),
		"PULUMI_MONITOR="+req.GetMonitorAddress(),
		"PULUMI_ENGINE="+engineAddress,
	)
	if err != nil {
		return nil, cleanup, err
	}
	cmd := exec.Command(binary, req.GetArgs()...) //nolint:gosec // running the user's program is the point.
	cmd.Dir = dir
	if req.GetPwd() != "" {
		cmd.Dir = req.GetPwd()
	}
	cmd.Env = env
	return cmd, cleanup, nil
}
