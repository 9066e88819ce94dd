// Runs in the sandboxed renderer before the page: exposes the contract (and dropped files' paths), nothing else.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { exposeBridge } from './preload-bridge.js';

exposeBridge(contextBridge, ipcRenderer, webUtils);
