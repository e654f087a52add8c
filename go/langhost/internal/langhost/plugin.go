package langhost

// RunPlugin: plugins written in a host's language. The engine runs a policy pack whose
// PulumiPolicy.yaml says `runtime: nodejs` through the Node.js host's RunPlugin (kind "analyzer")
// whenever a pulumi-language-nodejs is found, for a program in any language (`pulumi preview
// --policy-pack`, `pulumi policy analyze --file`): without it every policy pack fails to start. Only
// that is served here; a resource plugin written in a language (PulumiPlugin.yaml) is not.

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// pluginCommands makes a plugin's process (not started), per host name and plugin kind.
var pluginCommands = map[string]map[string]func(ctx context.Context, req *pulumirpc.RunPluginRequest) (*exec.Cmd, error){
	"pulumi-language-nodejs": {"analyzer": nodePolicyPackCommand},
}

// RunPlugin starts the plugin, streams its stdout (where the plugin writes the port it serves on)
// and stderr to the engine, and ends with its exit code. The engine cancels the stream to stop it,
// which kills the process.
func (h *host) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	command := pluginCommands[h.lang.Name()][req.GetKind()]
	if command == nil {
		return status.Errorf(codes.Unimplemented, "%s (krcloud build) does not run %q plugins", h.lang.Name(), req.GetKind())
	}
	cmd, err := command(server.Context(), req)
	if err != nil {
		return err
	}
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()
	cmd.Stdout = stdout
	cmd.Stderr = stderr

	code := 0
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			return fmt.Errorf("running %s: %w", cmd.Path, err)
		}
		code = exitErr.ExitCode()
	}
	return server.Send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(code)}})
}

// nodePolicyPackCommand runs a Node.js policy pack with the run script of the pack's own
// @pulumi/pulumi (@pulumi/pulumi/cmd/run-policy-pack, resolved from the pack's directory as
// upstream's host does), whose arguments are the engine's address (the request's args) and then the
// pack. Runtime option `nodeargs` of PulumiPolicy.yaml is passed to node.
func nodePolicyPackCommand(ctx context.Context, req *pulumirpc.RunPluginRequest) (*exec.Cmd, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find node on the $PATH")
	}
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd()
	}
	runScript, err := resolveModule(ctx, node, dir, "@pulumi/pulumi/cmd/run-policy-pack", "where the policy pack can find it")
	if err != nil {
		return nil, err
	}
	var args []string
	if opts := req.GetInfo().GetOptions(); opts != nil {
		if nodeargs, ok := opts.AsMap()["nodeargs"].(string); ok {
			args = strings.Fields(nodeargs)
		}
	}
	args = append(append(append(args, runScript), req.GetArgs()...), dir)
	cmd := exec.CommandContext(ctx, node, args...) //nolint:gosec // running the user's policy pack is the point.
	// In the pack's directory, as the engine runs the older pulumi-analyzer-policy script: the pack
	// resolves its own modules, and a program's tsconfig.json is not taken for the pack's.
	cmd.Dir = dir
	if env := req.GetEnv(); len(env) > 0 {
		cmd.Env = env
	}
	return cmd, nil
}

// resolveModule asks node to resolve a module of @pulumi/pulumi from dir (node_modules lookup,
// symlinks, NODE_PATH); `where` says where the package should have been, for the error.
func resolveModule(ctx context.Context, node, dir, module, where string) (string, error) {
	cmd := exec.CommandContext(ctx, node, "-e", "process.stdout.write(require.resolve(process.argv[1]))", module)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("could not resolve %s from %s (is @pulumi/pulumi installed %s?): %w: %s",
			module, dir, where, err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}
