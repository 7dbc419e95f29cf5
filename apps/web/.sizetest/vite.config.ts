import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
export default defineConfig({ plugins: [react()], logLevel: 'warn', build: { outDir: '/tmp/pweb/st', emptyOutDir: true, sourcemap: true, rollupOptions: { input: process.env.ENTRY } } });
