" .qspec files are qspec quantization specs (docs/editors.md).
autocmd BufRead,BufNewFile *.qspec setfiletype qspec
