package main

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"regexp"
	"sort"
	"strings"
)

// fixGo works around the bugs of Pulumi's Go program generator (pkg/v3 v3.219.0, the newest
// pulumi-yaml v1.25.0 builds with) that leave a converted example uncompilable; each rewrite keeps
// what the program means, and the tests compile every result (tests/engine/docs-examples.test.ts):
//
//   - lookupNames: the argument and result types of a function the Go SDK renames getX to LookupX.
//   - `.(pulumi.Interface{}Output)`, which does not parse, for a list of strings: pulumi.AnyOutput
//     (the projection below then replaces the whole apply).
//   - a function without inputs called in its plain form with `map[string]interface{}{}` for the
//     invoke options (`x, err := cache.GetFlavors(ctx, map[string]interface{}{}, nil)` and the
//     `if err != nil` after it): its output form, `x := cache.GetFlavorsOutput(ctx, nil)`.
//   - an apply that only reads a field of an invoke's result, `r.ApplyT(func(r T) (*float64, error)
//     { return &r.ShardCount, nil }).(pulumi.Float64PtrOutput)`, whose types the generator gets wrong
//     (a pointer to a pointer, `[]XOutput` for XArrayOutput, a StringPtrOutput where a StringInput
//     belongs): the accessors of the result's output type, `r.ShardCount()`, `r.Acl().Public()`.
//
// A program that does not parse after the first two is returned as it is (gen-examples.sh then
// shows its error on the page).
func fixGo(text []byte) []byte {
	text = lookupNames(text)
	text = bytes.ReplaceAll(text, []byte(".(pulumi.Interface{}Output)"), []byte(".(pulumi.AnyOutput)"))
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "main.go", text, 0)
	if err != nil {
		return text
	}
	type edit struct {
		start, end int
		with       string
	}
	var edits []edit
	offset := func(p token.Pos) int { return fset.Position(p).Offset }
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			for i := 0; i+1 < len(n.List); i++ {
				if with, ok := outputFormOfPlainCall(n.List[i], n.List[i+1]); ok {
					edits = append(edits, edit{offset(n.List[i].Pos()), offset(n.List[i+1].End()), with})
				}
			}
		case *ast.TypeAssertExpr:
			if with, ok := fieldAccessors(n); ok {
				edits = append(edits, edit{offset(n.Pos()), offset(n.End()), with})
				return false
			}
		}
		return true
	})
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	for _, e := range edits {
		text = append(text[:e.start:e.start], append([]byte(e.with), text[e.end:]...)...)
	}
	if formatted, err := format.Source(text); err == nil {
		return formatted
	}
	return text
}

// outputFormOfPlainCall: `v, err := pkg.GetX(ctx, map[string]interface{}{}, nil)` then
// `if err != nil { return err }` is `v := pkg.GetXOutput(ctx, nil)`.
func outputFormOfPlainCall(stmt, next ast.Stmt) (string, bool) {
	assign, ok := stmt.(*ast.AssignStmt)
	if !ok || assign.Tok != token.DEFINE || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 {
		return "", false
	}
	v, ok1 := assign.Lhs[0].(*ast.Ident)
	errVar, ok2 := assign.Lhs[1].(*ast.Ident)
	call, ok3 := assign.Rhs[0].(*ast.CallExpr)
	if !ok1 || !ok2 || !ok3 || errVar.Name != "err" || len(call.Args) != 3 {
		return "", false
	}
	fn, ok := call.Fun.(*ast.SelectorExpr)
	pkg, ok2 := fn.X.(*ast.Ident)
	lit, ok3 := call.Args[1].(*ast.CompositeLit)
	if !ok || !ok2 || !ok3 || len(lit.Elts) != 0 {
		return "", false
	}
	if m, isMap := lit.Type.(*ast.MapType); !isMap || !isIdent(m.Key, "string") {
		return "", false
	}
	check, ok := next.(*ast.IfStmt)
	if !ok || check.Init != nil || check.Else != nil || len(check.Body.List) != 1 {
		return "", false
	}
	return v.Name + " := " + pkg.Name + "." + fn.Sel.Name + "Output(ctx, nil)", true
}

// fieldAccessors: `r.ApplyT(func(r T) (U, error) { return <r.A.B>, nil }).(O)`, where <r.A.B> may
// be taken the address of or converted, is `r.A().B()`.
func fieldAccessors(n *ast.TypeAssertExpr) (string, bool) {
	call, ok := n.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	apply, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || apply.Sel.Name != "ApplyT" {
		return "", false
	}
	recv, ok := apply.X.(*ast.Ident)
	fn, ok2 := call.Args[0].(*ast.FuncLit)
	if !ok || !ok2 || len(fn.Type.Params.List) != 1 || len(fn.Type.Params.List[0].Names) != 1 || len(fn.Body.List) != 1 {
		return "", false
	}
	param := fn.Type.Params.List[0].Names[0].Name
	ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
	if !ok || param != recv.Name || len(ret.Results) != 2 || !isIdent(ret.Results[1], "nil") {
		return "", false
	}
	var fields []string
	e := ret.Results[0]
	for {
		switch x := e.(type) {
		case *ast.UnaryExpr: // &r.A
			if x.Op != token.AND {
				return "", false
			}
			e = x.X
			continue
		case *ast.CallExpr: // T(r.A), a conversion
			if len(x.Args) != 1 {
				return "", false
			}
			e = x.Args[0]
			continue
		case *ast.TypeAssertExpr: // r.A.(T)
			e = x.X
			continue
		case *ast.ParenExpr:
			e = x.X
			continue
		}
		break
	}
	for {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			break
		}
		fields = append([]string{sel.Sel.Name + "()"}, fields...)
		e = sel.X
	}
	if !isIdent(e, param) || len(fields) == 0 {
		return "", false
	}
	return recv.Name + "." + strings.Join(fields, "."), true
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

var lookupCall = regexp.MustCompile(`\b(\w+)\.Lookup(\w+)Output\(ctx, `)

// lookupNames: where a module has both a resource X and a function getX, the Go SDK names the
// function LookupX (GetX is the resource's own read), and the generator calls LookupXOutput but
// names its argument and result types GetXOutputArgs and GetXResult, which the SDK does not have
// (`undefined: cache.GetClusterOutputArgs`). They become LookupXOutputArgs and LookupXResult.
func lookupNames(text []byte) []byte {
	for _, m := range lookupCall.FindAllSubmatch(text, -1) {
		pkg, name := string(m[1]), string(m[2])
		wrong := regexp.MustCompile(`\b` + pkg + `\.Get` + name + `(OutputArgs|Result)`)
		text = wrong.ReplaceAll(text, []byte(pkg+".Lookup"+name+"$1"))
	}
	return text
}
