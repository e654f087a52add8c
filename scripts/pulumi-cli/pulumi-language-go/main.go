// Command pulumi-language-go is a minimal Go language host for the Pulumi CLI (see internal/langhost
// for why it is not upstream's). It builds the program with `go build` (the go on $PATH, the
// program's go.mod and the environment's GOFLAGS/GOPROXY) into a temporary file and runs it with the
// PULUMI_* environment the Go SDK's pulumi.Run reads.
//
// Runtime options of Pulumi.yaml: `binary` (a prebuilt program, relative to the project directory)
// and `buildTarget` (the package to build, default "."). Each run builds again; Go's build cache
// makes the second build fast.
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

type golang struct{}

func main() { langhost.Main(golang{}) }

func (golang) Name() string { return "pulumi-language-go" }

func (golang) Command(ctx context.Context, req *pulumirpc.RunRequest, engineAddress string) (*exec.Cmd, func(), error) {
	var cleanup func()
	dir := langhost.ProgramDir(req)
	opts := langhost.Options(req)
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

	env, err := langhost.ConfigEnv(req)
	if err != nil {
		return nil, cleanup, err
	}
	env = append(os.Environ(), env...)
	root := ""
	if info := req.GetInfo(); info != nil {
		root = info.GetRootDirectory()
	}
	env = append(env,
		"PULUMI_ORGANIZATION="+req.GetOrganization(),
		"PULUMI_PROJECT="+req.GetProject(),
		"PULUMI_ROOT_DIRECTORY="+root,
		"PULUMI_STACK="+req.GetStack(),
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()),
		"PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel())),
		"PULUMI_MONITOR="+req.GetMonitorAddress(),
		"PULUMI_ENGINE="+engineAddress,
	)
	cmd := exec.Command(binary, req.GetArgs()...) //nolint:gosec // running the user's program is the point.
	cmd.Dir = dir
	if req.GetPwd() != "" {
		cmd.Dir = req.GetPwd()
	}
	cmd.Env = env
	return cmd, cleanup, nil
}

func (golang) About(ctx context.Context) (string, string, error) {
	exe, err := exec.LookPath("go")
	if err != nil {
		return "", "", errors.New("could not find go on the $PATH")
	}
	out, err := exec.CommandContext(ctx, exe, "env", "GOVERSION").Output()
	if err != nil {
		return "", "", fmt.Errorf("running %s env GOVERSION: %w", exe, err)
	}
	return exe, strings.TrimPrefix(strings.TrimSpace(string(out)), "go"), nil
}
