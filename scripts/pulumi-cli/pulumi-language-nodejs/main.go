// Command pulumi-language-nodejs is a minimal Node.js language host for the Pulumi CLI.
//
// Why this exists: upstream's host lives in its own Go module
// (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) and the Go module proxy
// reachable from this project's machines refuses every version of it (HTTP 403), so it cannot be
// built from source here. This host implements the part of the LanguageRuntime gRPC service that
// `pulumi preview/up/refresh/destroy` need: it runs the program through the run script shipped in
// the @pulumi/pulumi npm package (@pulumi/pulumi/cmd/run), exactly as the upstream host does.
// Not implemented: `pulumi new` templating, code generation, packing/linking, and plugins or
// policy packs written in Node.js. Dependency installation is left to npm.
//
// Behaviour kept from upstream:
//   - `node` is looked up on $PATH (put the Node version you want first on PATH);
//   - runtime options from Pulumi.yaml: typescript (default true), tsconfig, nodeargs;
//   - config is passed in PULUMI_CONFIG / PULUMI_CONFIG_SECRET_KEYS;
//   - exit code 32 from the run script means "error already reported" (bail).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Exit code used by @pulumi/pulumi/cmd/run when it has already shown the error to the user.
const exitCodeErrorAlreadyReported = 32

func main() {
	// Flags the engine may pass (see buildPluginArguments in sdk/go/common/resource/plugin):
	// --logtostderr and -v=N are registered by the sdk's logging package and read by InitLogging.
	tracing := flag.String("tracing", "", "tracing endpoint")
	// Accepted for compatibility with the upstream host's legacy flags; options normally come from Pulumi.yaml.
	_ = flag.String("root", "", "project root (ignored)")
	_ = flag.Bool("typescript", true, "(ignored, use runtime options)")
	_ = flag.String("tsconfig", "", "(ignored, use runtime options)")
	_ = flag.String("nodeargs", "", "(ignored, use runtime options)")
	_ = flag.String("packagemanager", "", "(ignored)")
	flag.Parse()

	logging.InitLogging(false, 0, false)

	engineAddress := ""
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[len(args)-1]
	}

	host := &nodeHost{engineAddress: engineAddress, tracing: *tracing}
	cancel := make(chan bool)
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "fatal: could not start language host RPC server: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)

	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "fatal: language host RPC server stopped: %v\n", err)
		os.Exit(1)
	}
}

type nodeHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
	tracing       string
	running       []*exec.Cmd
}

func (h *nodeHost) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *nodeHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// Plugins are installed on demand by the engine; this host does not scan node_modules for them.
func (h *nodeHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *nodeHost) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *nodeHost) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *nodeHost) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

func (h *nodeHost) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on the $PATH")
	}
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("running %s --version: %w", node, err)
	}
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
	}, nil
}

// InstallDependencies is a no-op: install the program's npm dependencies yourself.
func (h *nodeHost) InstallDependencies(_ *pulumirpc.InstallDependenciesRequest,
	stream grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return stream.Send(&pulumirpc.InstallDependenciesResponse{
		Stdout: []byte("pulumi-language-nodejs (krcloud build): dependency installation is not supported, " +
			"run npm install yourself\n"),
	})
}

// Cancel stops any program that is still running.
func (h *nodeHost) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, cmd := range h.running {
		if cmd.Process != nil {
			_ = cmd.Process.Signal(syscall.SIGINT)
		}
	}
	return &emptypb.Empty{}, nil
}

type runtimeOptions struct {
	typescript bool
	tsconfig   string
	nodeargs   []string
}

func parseOptions(info *pulumirpc.ProgramInfo) runtimeOptions {
	opts := runtimeOptions{typescript: true}
	if info == nil || info.GetOptions() == nil {
		return opts
	}
	m := info.GetOptions().AsMap()
	if v, ok := m["typescript"]; ok {
		switch t := v.(type) {
		case bool:
			opts.typescript = t
		case string:
			opts.typescript = t != "false"
		}
	}
	if v, ok := m["tsconfig"].(string); ok {
		opts.tsconfig = v
	}
	if v, ok := m["nodeargs"].(string); ok {
		opts.nodeargs = strings.Fields(v)
	}
	return opts
}

// resolveRunScript asks node to resolve @pulumi/pulumi/cmd/run from the program directory, so the
// program's own copy of @pulumi/pulumi is used (node_modules lookup, symlinks and NODE_PATH all work).
func resolveRunScript(ctx context.Context, node, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, node, "-e",
		`process.stdout.write(require.resolve("@pulumi/pulumi/cmd/run"))`)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("could not resolve @pulumi/pulumi/cmd/run from %s (is @pulumi/pulumi installed "+
			"in the program's node_modules?): %w: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func (h *nodeHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on the $PATH")
	}

	info := req.GetInfo()
	opts := parseOptions(info)
	pwd := req.GetPwd()
	programDir := pwd
	if info != nil && info.GetProgramDirectory() != "" {
		programDir = info.GetProgramDirectory()
	}
	program := req.GetProgram()
	if program == "" {
		program = "."
	}

	runScript, err := resolveRunScript(ctx, node, programDir)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	h.mu.Lock()
	engineAddress := h.engineAddress
	h.mu.Unlock()

	args := append([]string{}, opts.nodeargs...)
	args = append(args, runScript)
	if req.GetOrganization() != "" {
		args = append(args, "--organization", req.GetOrganization())
	}
	if req.GetProject() != "" {
		args = append(args, "--project", req.GetProject())
	}
	if info != nil && info.GetRootDirectory() != "" {
		args = append(args, "--root-directory", info.GetRootDirectory())
	}
	if req.GetStack() != "" {
		args = append(args, "--stack", req.GetStack())
	}
	if pwd != "" {
		args = append(args, "--pwd", pwd)
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		args = append(args, "--parallel", strconv.Itoa(int(req.GetParallel())))
	}
	args = append(args, "--monitor", req.GetMonitorAddress())
	if engineAddress != "" {
		args = append(args, "--engine", engineAddress)
	}
	if h.tracing != "" {
		args = append(args, "--tracing", h.tracing)
	}
	args = append(args, program)
	args = append(args, req.GetArgs()...)

	// A stack without config has a nil map, which would marshal to "null" and crash @pulumi/pulumi's
	// config parsing: always hand over an object.
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}

	env := os.Environ()
	env = append(env,
		"PULUMI_CONFIG="+string(configJSON),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON),
		"PULUMI_NODEJS_TYPESCRIPT="+strconv.FormatBool(opts.typescript),
	)
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}

	cmd := exec.Command(node, args...) //nolint:gosec // running the user's program is the point.
	cmd.Dir = programDir
	if cmd.Dir == "" {
		cmd.Dir, _ = filepath.Abs(".")
	}
	cmd.Env = env
	// The engine captures the host's stdout/stderr and shows it as program output.
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr

	if err := cmd.Start(); err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("failed to start node: %v", err)}, nil
	}
	h.mu.Lock()
	h.running = append(h.running, cmd)
	h.mu.Unlock()

	err = cmd.Wait()

	h.mu.Lock()
	for i, c := range h.running {
		if c == cmd {
			h.running = append(h.running[:i], h.running[i+1:]...)
			break
		}
	}
	h.mu.Unlock()

	if err == nil {
		return &pulumirpc.RunResponse{}, nil
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code := exitErr.ExitCode()
		if code == exitCodeErrorAlreadyReported {
			return &pulumirpc.RunResponse{Bail: true}, nil
		}
		if code == -1 {
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited unexpectedly: %v", err)}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", code)}, nil
	}
	return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run language executor): %v",
		err)}, nil
}
