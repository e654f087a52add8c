// Command pulumi-language-python is a minimal Python language host for the Pulumi CLI (see
// internal/langhost for why it is not upstream's). It runs the program with the executor script that
// upstream ships next to its host, pulumi-language-python-exec (copied from the
// github.com/pulumi/pulumi/sdk/v3 module at build time by scripts/install-pulumi-languages.sh), and the
// `pulumi` package installed in the program's Python.
//
// Which Python: runtime option `virtualenv` of Pulumi.yaml (relative to the project directory),
// else $PULUMI_PYTHON_CMD, else python3 then python on $PATH. Other options (toolchain: uv/poetry,
// typechecker) are not supported.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"pulumi-krcloud/scripts/pulumi-cli/internal/langhost"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

type python struct{}

func main() { langhost.Main(python{}) }

func (python) Name() string { return "pulumi-language-python" }

// interpreter returns the Python to run and, for a virtualenv, its directory.
func interpreter(req *pulumirpc.RunRequest) (string, string, error) {
	if venv, ok := langhost.Options(req)["virtualenv"].(string); ok && venv != "" {
		if !filepath.IsAbs(venv) {
			root := ""
			if info := req.GetInfo(); info != nil {
				root = info.GetRootDirectory()
			}
			if root == "" {
				root = langhost.ProgramDir(req)
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

func (python) Command(ctx context.Context, req *pulumirpc.RunRequest, engineAddress string) (*exec.Cmd, func(), error) {
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
		return nil, nil, fmt.Errorf("%s is missing (run scripts/install-pulumi-languages.sh)", script)
	}

	args := []string{"-u", script}
	if req.GetOrganization() != "" {
		args = append(args, "--organization", req.GetOrganization())
	}
	if info := req.GetInfo(); info != nil && info.GetRootDirectory() != "" {
		args = append(args, "--root_directory", info.GetRootDirectory())
	}
	args = append(args, "--project", req.GetProject(), "--stack", req.GetStack())
	if req.GetPwd() != "" {
		args = append(args, "--pwd", req.GetPwd())
	}
	args = append(args, "--dry_run", strconv.FormatBool(req.GetDryRun()))
	// The executor script needs --parallel (it converts it with int()).
	args = append(args, "--parallel", strconv.Itoa(int(req.GetParallel())))
	args = append(args, "--monitor", req.GetMonitorAddress())
	if engineAddress != "" {
		args = append(args, "--engine", engineAddress)
	}
	program := req.GetProgram()
	if program == "" {
		program = "."
	}
	args = append(args, program)
	args = append(args, req.GetArgs()...)

	env, err := langhost.ConfigEnv(req)
	if err != nil {
		return nil, nil, err
	}
	env = append(os.Environ(), env...)
	env = append(env, "PYTHONUNBUFFERED=true")
	if venv != "" {
		env = append(env, "VIRTUAL_ENV="+venv, "PATH="+filepath.Join(venv, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	cmd := exec.Command(exe, args...) //nolint:gosec // running the user's program is the point.
	cmd.Dir = langhost.ProgramDir(req)
	cmd.Env = env
	return cmd, nil, nil
}

func (python) About(ctx context.Context) (string, string, error) {
	exe, err := exec.LookPath("python3")
	if err != nil {
		return "", "", errors.New("could not find python3 on the $PATH")
	}
	out, err := exec.CommandContext(ctx, exe, "--version").Output()
	if err != nil {
		return "", "", fmt.Errorf("running %s --version: %w", exe, err)
	}
	return exe, strings.TrimPrefix(strings.TrimSpace(string(out)), "Python "), nil
}
