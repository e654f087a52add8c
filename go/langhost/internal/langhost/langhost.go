// Package langhost is the krcloud builds of pulumi-language-nodejs, pulumi-language-python and
// pulumi-language-go: the LanguageRuntime gRPC server, program process handling and the engine's
// config here, what each language runs in languages.go.
//
// Why this exists: upstream's hosts live in their own Go modules
// (github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3,
// github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3, .../sdk/nodejs/cmd/pulumi-language-nodejs/v3)
// and the Go module proxy reachable from this project's machines refuses every version of them (HTTP
// 403). These hosts implement what `pulumi preview/up/refresh/destroy/import` need and nothing more: no
// `pulumi new` templating, code generation or dependency installation; of plugins, only Node.js
// policy packs (plugin.go).
package langhost

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ExitCodeErrorAlreadyReported is the exit code with which a program says it has shown its error.
const ExitCodeErrorAlreadyReported = 32

// Language is what differs between the hosts.
type Language interface {
	// Name is the host's name in messages ("pulumi-language-python").
	Name() string
	// Command returns the program's process (not started): binary, arguments, directory and
	// environment. engineAddress is the engine's gRPC address. cleanup, when not nil, runs once the
	// program has exited.
	Command(ctx context.Context, req *pulumirpc.RunRequest, engineAddress string) (cmd *exec.Cmd, cleanup func(), err error)
	// Executable and version of the runtime, for `pulumi about`.
	About(ctx context.Context) (string, string, error)
}

// Tracing is the engine's tracing endpoint (--tracing), which the Node.js run script takes too.
var Tracing string

// Main parses the engine's flags and serves the LanguageRuntime service until the engine stops it.
// The engine passes --logtostderr and -v=N (registered by the SDK's logging package); the other
// flags are the upstream hosts' legacy ones, accepted and ignored (options come from Pulumi.yaml).
func Main(lang Language) {
	flag.StringVar(&Tracing, "tracing", "", "tracing endpoint")
	_ = flag.Bool("typescript", true, "(ignored, use runtime options)")
	for _, name := range []string{"tsconfig", "nodeargs", "packagemanager"} {
		_ = flag.String(name, "", "(ignored, use runtime options)")
	}
	_ = flag.String("root", "", "project root (ignored)")
	_ = flag.String("binary", "", "(ignored, use runtime options)")
	_ = flag.String("buildTarget", "", "(ignored)")
	_ = flag.String("virtualenv", "", "(ignored, use runtime options)")
	_ = flag.String("toolchain", "", "(ignored)")
	_ = flag.String("typechecker", "", "(ignored)")
	flag.Parse()
	logging.InitLogging(false, 0, false)

	engineAddress := ""
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[len(args)-1]
	}
	h := &host{lang: lang, engineAddress: engineAddress}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: make(chan bool),
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, h)
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

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	lang          Language
	mu            sync.Mutex
	engineAddress string
	running       []*exec.Cmd
}

func (h *host) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// Plugins are installed with `pulumi plugin install`; this host does not scan the program's packages.
func (h *host) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// GetProgramDependencies (`pulumi about`) and RuntimeOptionsPrompts (`pulumi new`) are left
// unimplemented: the engine treats them as optional.

func (h *host) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	exe, ver, err := h.lang.About(ctx)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{Executable: exe, Version: ver}, nil
}

// InstallDependencies is a no-op: install the program's dependencies yourself (npm, pip, go mod).
func (h *host) InstallDependencies(_ *pulumirpc.InstallDependenciesRequest,
	stream grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return stream.Send(&pulumirpc.InstallDependenciesResponse{
		Stdout: []byte(h.lang.Name() + " (krcloud build): dependency installation is not supported, install them yourself\n"),
	})
}

// Cancel stops any program that is still running.
func (h *host) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, cmd := range h.running {
		if cmd.Process != nil {
			_ = cmd.Process.Signal(syscall.SIGINT)
		}
	}
	return &emptypb.Empty{}, nil
}

// Env is the program's environment: this process's, the stack's config as the Pulumi SDKs read it
// (PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS, always JSON objects/arrays: a stack without config
// has nil maps, which would marshal to "null"), then extra.
func Env(req *pulumirpc.RunRequest, extra ...string) ([]string, error) {
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
	env := append(os.Environ(), "PULUMI_CONFIG="+string(configJSON), "PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON))
	return append(env, extra...), nil
}

// ProgramDir is where the program runs: the program directory, else the working directory.
func ProgramDir(req *pulumirpc.RunRequest) string {
	if info := req.GetInfo(); info != nil && info.GetProgramDirectory() != "" {
		return info.GetProgramDirectory()
	}
	if req.GetPwd() != "" {
		return req.GetPwd()
	}
	dir, _ := os.Getwd()
	return dir
}

// Options are the runtime options of Pulumi.yaml (`runtime: {name: python, options: {...}}`).
func Options(req *pulumirpc.RunRequest) map[string]any {
	if info := req.GetInfo(); info != nil && info.GetOptions() != nil {
		return info.GetOptions().AsMap()
	}
	return map[string]any{}
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	h.mu.Lock()
	engineAddress := h.engineAddress
	h.mu.Unlock()

	cmd, cleanup, err := h.lang.Command(ctx, req, engineAddress)
	if cleanup != nil {
		defer cleanup()
	}
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	// The engine shows the host's stdout/stderr as the program's output.
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("failed to start %s: %v", cmd.Path, err)}, nil
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
		if code == ExitCodeErrorAlreadyReported {
			return &pulumirpc.RunResponse{Bail: true}, nil
		}
		if code == -1 {
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited unexpectedly: %v", err)}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", code)}, nil
	}
	return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program: %v", err)}, nil
}
