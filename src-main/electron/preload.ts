// Runs in the sandboxed renderer before the page: exposes the contract, nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { exposeBridge } from './preload-bridge.js';

exposeBridge(contextBridge, ipcRenderer);
