package xlsx_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/svc-feedback/svc"
	"github.com/svc-feedback/svc/store/sqlite"
	"github.com/svc-feedback/svc/xlsx"
)

// An app turns spreadsheets on by giving svc the xlsx writer: format=xlsx and the results
// pages' "Download for Excel" then write Excel files. An app that does not links no excelize.
func ExampleNew() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "svc-xlsx-example")
	defer os.RemoveAll(dir)
	st, err := sqlite.Open(ctx, filepath.Join(dir, "svc.db"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	h, err := svc.NewHandler(st, &svc.Options{Spreadsheets: xlsx.New(), Webhooks: svc.WebhookOptions{Disabled: true}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close(ctx)
	fmt.Println("GET .../responses/export?format=xlsx now writes an Excel file")
	// Output: GET .../responses/export?format=xlsx now writes an Excel file
}
